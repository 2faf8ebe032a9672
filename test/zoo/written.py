"""Hand-written architectures for the model zoo: small, realistic PyTorch
models for idioms that torchvision and torchaudio do not cover (U-Net skips,
pixel shuffle, point clouds, recommenders, hand-written attention, graph
convolution, unrolled decoders), each with random weights (fixed seed).

Runs under the Python that has PyTorch (Debian's python3-torch 1.13). WRITTEN
maps a name to a function returning (module, {input name: numpy array},
{input name: dynamic axes}), as architectures.py's entries do. PyTorch 1.13
exports torch.triu only from opset 14, so causal masks are built once with
it at construction and sliced to the sequence length in forward.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

SEED = 7


def _normal(*shape):
    return np.random.default_rng(SEED).standard_normal(shape).astype(np.float32)


def _ids(vocab, *shape):
    return np.random.default_rng(SEED).integers(1, vocab, shape).astype(np.int64)


def _trained_norms(model):
    """Gives batch norms the non-trivial statistics and affine terms of a
    trained model, so that folding them into convolutions is exercised."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    return model


def _cbr(cin, cout, k=3, stride=1, act=nn.ReLU):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), act())


def _cbr1d(cin, cout):
    return nn.Sequential(nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout), nn.ReLU())


class UNet(nn.Module):
    """3-level U-Net: MaxPool down, ConvTranspose2d up, skip concatenation."""

    def __init__(self, cin=3, classes=2, w=16):
        super().__init__()
        self.enc1 = nn.Sequential(_cbr(cin, w), _cbr(w, w))
        self.enc2 = nn.Sequential(_cbr(w, 2 * w), _cbr(2 * w, 2 * w))
        self.mid = nn.Sequential(_cbr(2 * w, 4 * w), _cbr(4 * w, 4 * w))
        self.up2 = nn.ConvTranspose2d(4 * w, 2 * w, 2, stride=2)
        self.dec2 = nn.Sequential(_cbr(4 * w, 2 * w), _cbr(2 * w, 2 * w))
        self.up1 = nn.ConvTranspose2d(2 * w, w, 2, stride=2)
        self.dec1 = nn.Sequential(_cbr(2 * w, w), _cbr(w, w))
        self.head = nn.Conv2d(w, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.head(d1)


def _unet():
    torch.manual_seed(SEED)
    return _trained_norms(UNet()), {"x": _normal(1, 3, 64, 64)}, {"x": {0: "batch"}}


class ESPCN(nn.Module):
    """Sub-pixel super-resolution: tanh convolutions, then nn.PixelShuffle(3)."""

    def __init__(self, scale=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 64, 5, padding=2), nn.Tanh(), nn.Conv2d(64, 32, 3, padding=1), nn.Tanh(),
            nn.Conv2d(32, scale * scale, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, x):
        return self.body(x)


def _espcn():
    torch.manual_seed(SEED)
    return ESPCN(), {"x": _normal(1, 1, 32, 32)}, {"x": {0: "batch"}}


class FSRCNN(nn.Module):
    """FSRCNN: extract, shrink, map, expand with per-channel PReLU, then a
    strided ConvTranspose2d upscaling by 2."""

    def __init__(self, d=32, s=12, maps=3):
        super().__init__()
        layers = [nn.Conv2d(1, d, 5, padding=2), nn.PReLU(d), nn.Conv2d(d, s, 1), nn.PReLU(s)]
        for _ in range(maps):
            layers += [nn.Conv2d(s, s, 3, padding=1), nn.PReLU(s)]
        layers += [nn.Conv2d(s, d, 1), nn.PReLU(d)]
        self.body = nn.Sequential(*layers)
        self.up = nn.ConvTranspose2d(d, 1, 9, stride=2, padding=4, output_padding=1)
        with torch.no_grad():
            for m in self.body:
                if isinstance(m, nn.PReLU):
                    m.weight.uniform_(0.05, 0.4)

    def forward(self, x):
        return self.up(self.body(x))


def _fsrcnn():
    torch.manual_seed(SEED)
    return FSRCNN(), {"x": _normal(1, 1, 32, 32)}, {"x": {0: "batch"}}


class PointNet(nn.Module):
    """PointNet: a T-Net predicts a 3x3 transform applied with bmm, then a
    shared Conv1d MLP and a global max over the points."""

    def __init__(self, classes=10):
        super().__init__()
        self.tnet = nn.Sequential(_cbr1d(3, 32), _cbr1d(32, 64))
        self.tnet_fc = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 9))
        self.register_buffer("eye", torch.eye(3).flatten())
        self.mlp = nn.Sequential(_cbr1d(3, 32), _cbr1d(32, 64), _cbr1d(64, 128))
        self.head = nn.Sequential(nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(),
                                  nn.Linear(64, classes))

    def forward(self, points):
        t = self.tnet(points).max(dim=2)[0]
        t = (self.tnet_fc(t) + self.eye).view(-1, 3, 3)
        aligned = torch.bmm(points.transpose(1, 2), t).transpose(1, 2)
        return self.head(self.mlp(aligned).max(dim=2)[0])


def _pointnet():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    points = rng.uniform(-1, 1, (1, 3, 256)).astype(np.float32)
    return _trained_norms(PointNet()), {"points": points}, {"points": {0: "batch", 2: "points"}}


class MixerBlock(nn.Module):
    """Token mixing (an MLP over the transposed token axis), then channel mixing."""

    def __init__(self, tokens, dim, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.tokens = nn.Sequential(nn.Linear(tokens, token_hidden), nn.GELU(),
                                    nn.Linear(token_hidden, tokens))
        self.norm2 = nn.LayerNorm(dim)
        self.channels = nn.Sequential(nn.Linear(dim, channel_hidden), nn.GELU(),
                                      nn.Linear(channel_hidden, dim))

    def forward(self, x):
        x = x + self.tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channels(self.norm2(x))


class MLPMixer(nn.Module):
    """MLP-Mixer: patch-embedding conv, mixer blocks, LayerNorm, mean over tokens."""

    def __init__(self, size=64, patch=8, dim=64, depth=2, classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, patch, stride=patch)
        tokens = (size // patch) ** 2
        self.blocks = nn.Sequential(*[MixerBlock(tokens, dim, 32, 128) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        return self.head(self.norm(self.blocks(x)).mean(dim=1))


def _mlp_mixer():
    torch.manual_seed(SEED)
    return MLPMixer(), {"x": _normal(1, 3, 64, 64)}, {"x": {0: "batch"}}


class DLRM(nn.Module):
    """DLRM: bottom MLP, embedding lookups, pairwise dot products with bmm
    gathered at a fixed buffer of upper-triangle indices, top MLP, sigmoid."""

    def __init__(self, dense=13, dim=16, tables=(1000, 500, 200)):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(dense, 64), nn.ReLU(), nn.Linear(64, dim), nn.ReLU())
        self.embeddings = nn.ModuleList(nn.Embedding(n, dim) for n in tables)
        f = len(tables) + 1
        rows, cols = torch.triu_indices(f, f, offset=1)
        self.register_buffer("pairs", rows * f + cols)
        self.top = nn.Sequential(nn.Linear(dim + len(rows), 32), nn.ReLU(), nn.Linear(32, 1),
                                 nn.Sigmoid())

    def forward(self, dense, sparse):
        d = self.bottom(dense)
        feats = torch.stack([d] + [e(sparse[:, i]) for i, e in enumerate(self.embeddings)], 1)
        dots = torch.bmm(feats, feats.transpose(1, 2)).flatten(1)
        return self.top(torch.cat([d, torch.index_select(dots, 1, self.pairs)], 1))


def _dlrm():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    dense = np.log1p(rng.exponential(3.0, (2, 13))).astype(np.float32)
    sparse = np.stack([rng.integers(0, n, 2) for n in (1000, 500, 200)], 1).astype(np.int64)
    return DLRM(), {"dense": dense, "sparse": sparse}, {"dense": {0: "batch"},
                                                        "sparse": {0: "batch"}}


class CRNN(nn.Module):
    """CRNN: conv stack pooling the height to 1, squeeze, bidirectional LSTM
    over the width, Linear, log_softmax over the classes."""

    def __init__(self, classes=37, hidden=64):
        super().__init__()
        self.cnn = nn.Sequential(
            _cbr(1, 32), nn.MaxPool2d(2), _cbr(32, 48), nn.MaxPool2d(2),
            _cbr(48, 64), nn.MaxPool2d((2, 1)), _cbr(64, 64), nn.MaxPool2d((4, 1)))
        self.rnn = nn.LSTM(64, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, classes)

    def forward(self, image):
        features = self.cnn(image).squeeze(2).transpose(1, 2)
        h, _ = self.rnn(features)
        return self.head(h).log_softmax(-1)


def _crnn():
    torch.manual_seed(SEED)
    return _trained_norms(CRNN()), {"image": _normal(1, 1, 32, 128)}, {"image": {0: "batch"}}


class DSCNN(nn.Module):
    """DS-CNN keyword spotter: strided conv, depthwise-separable blocks,
    AvgPool over the whole map, Linear."""

    def __init__(self, ch=64, blocks=4, classes=12):
        super().__init__()
        layers = [nn.Conv2d(1, ch, (10, 4), stride=2, padding=(5, 1), bias=False),
                  nn.BatchNorm2d(ch), nn.ReLU()]
        for _ in range(blocks):
            layers += [nn.Conv2d(ch, ch, 3, padding=1, groups=ch, bias=False), nn.BatchNorm2d(ch),
                       nn.ReLU(), nn.Conv2d(ch, ch, 1, bias=False), nn.BatchNorm2d(ch), nn.ReLU()]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AvgPool2d((25, 5))
        self.head = nn.Linear(ch, classes)

    def forward(self, mfcc):
        return self.head(self.pool(self.features(mfcc)).flatten(1))


def _ds_cnn_kws():
    torch.manual_seed(SEED)
    mfcc = _normal(1, 1, 49, 10) * 4.0
    return _trained_norms(DSCNN()), {"mfcc": mfcc}, {"mfcc": {0: "batch"}}


class GPTBlock(nn.Module):
    """Pre-norm block: hand-written causal multi-head attention, GELU MLP."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads, self.scale = heads, (width // heads) ** -0.5
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                 nn.Linear(4 * width, width))

    def forward(self, x, causal):
        b, s, w = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(w, dim=-1)
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) * self.scale
        scores = scores.masked_fill(causal, float("-inf")).softmax(-1)
        x = x + self.proj((scores @ v).transpose(1, 2).reshape(b, s, w))
        return x + self.mlp(self.ln2(x))


class GPTDecoder(nn.Module):
    """GPT-style decoder: token and learned position embeddings, a causal
    mask from torch.triu sliced to the sequence, tied LM head."""

    def __init__(self, vocab=500, width=64, heads=4, layers=2, context=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.pos = nn.Parameter(torch.randn(1, context, width) * 0.02)
        ones = torch.ones(context, context, dtype=torch.bool)
        self.register_buffer("causal", torch.triu(ones, diagonal=1))
        self.blocks = nn.ModuleList(GPTBlock(width, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(width)

    def forward(self, ids):
        s = ids.shape[1]
        h = self.embed(ids) + self.pos[:, :s]
        causal = self.causal[:s, :s]
        for block in self.blocks:
            h = block(h, causal)
        return F.linear(self.norm(h), self.embed.weight)


def _gpt_decoder():
    torch.manual_seed(SEED)
    return GPTDecoder(), {"ids": _ids(500, 2, 24)}, {"ids": {0: "batch", 1: "seq"}}


class Seq2SeqTransformer(nn.Module):
    """nn.Transformer encoder-decoder with token embeddings, learned
    positions and a generate_square_subsequent_mask target mask."""

    def __init__(self, src_vocab=300, tgt_vocab=250, width=64, context=64):
        super().__init__()
        self.width = width
        self.src_embed = nn.Embedding(src_vocab, width)
        self.tgt_embed = nn.Embedding(tgt_vocab, width)
        self.pos = nn.Parameter(torch.randn(1, context, width) * 0.02)
        self.register_buffer("tgt_mask", nn.Transformer.generate_square_subsequent_mask(context))
        self.transformer = nn.Transformer(width, 4, 2, 2, 128, dropout=0.0, batch_first=True)
        self.head = nn.Linear(width, tgt_vocab)

    def forward(self, src, tgt):
        s, t = src.shape[1], tgt.shape[1]
        src_h = self.src_embed(src) * math.sqrt(self.width) + self.pos[:, :s]
        tgt_h = self.tgt_embed(tgt) * math.sqrt(self.width) + self.pos[:, :t]
        return self.head(self.transformer(src_h, tgt_h, tgt_mask=self.tgt_mask[:t, :t]))


def _seq2seq_transformer():
    torch.manual_seed(SEED)
    inputs = {"src": _ids(300, 2, 20), "tgt": _ids(250, 2, 12)}
    return Seq2SeqTransformer(), inputs, {"src": {0: "batch", 1: "src_seq"},
                                          "tgt": {0: "batch", 1: "tgt_seq"}}


class TemporalBlock(nn.Module):
    """Two dilated causal Conv1d (left padding with F.pad), residual 1x1 conv."""

    def __init__(self, cin, cout, dilation, k=3):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv1 = nn.Conv1d(cin, cout, k, dilation=dilation)
        self.conv2 = nn.Conv1d(cout, cout, k, dilation=dilation)
        self.residual = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        h = torch.relu(self.conv1(F.pad(x, (self.pad, 0))))
        h = torch.relu(self.conv2(F.pad(h, (self.pad, 0))))
        return torch.relu(h + self.residual(x))


class TCN(nn.Module):
    """Temporal conv net: dilations 1, 2, 4, 8 and a per-step 1x1 head."""

    def __init__(self, cin=8, ch=32, outputs=4):
        super().__init__()
        self.blocks = nn.Sequential(*[TemporalBlock(cin if d == 1 else ch, ch, d)
                                      for d in (1, 2, 4, 8)])
        self.head = nn.Conv1d(ch, outputs, 1)

    def forward(self, x):
        return self.head(self.blocks(x))


def _tcn():
    torch.manual_seed(SEED)
    return TCN(), {"x": _normal(1, 8, 200)}, {"x": {0: "batch", 2: "time"}}


class TextCNN(nn.Module):
    """Kim-style text CNN: embedding, Conv1d widths 3/4/5, max over time, concat."""

    def __init__(self, vocab=2000, dim=64, ch=32, classes=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(dim, ch, k) for k in (3, 4, 5))
        self.head = nn.Linear(3 * ch, classes)

    def forward(self, ids):
        e = self.embed(ids).transpose(1, 2)
        return self.head(torch.cat([torch.relu(c(e)).max(dim=2)[0] for c in self.convs], 1))


def _text_cnn():
    torch.manual_seed(SEED)
    ids = _ids(2000, 2, 40)
    ids[1, 28:] = 0
    return TextCNN(), {"ids": ids}, {"ids": {0: "batch", 1: "seq"}}


class ConvAutoencoder(nn.Module):
    """Stride-2 conv encoder; decoder of nearest nn.Upsample and convs; Sigmoid."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU())
        up = nn.Upsample(scale_factor=2, mode="nearest")
        self.decoder = nn.Sequential(
            up, nn.Conv2d(64, 32, 3, padding=1), nn.ReLU(), up, nn.Conv2d(32, 16, 3, padding=1),
            nn.ReLU(), up, nn.Conv2d(16, 3, 3, padding=1), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


def _conv_autoencoder():
    torch.manual_seed(SEED)
    return ConvAutoencoder(), {"x": _normal(1, 3, 64, 64)}, {"x": {0: "batch"}}


class GCN(nn.Module):
    """Two graph convolutions adj @ (x W) on a dense normalized adjacency,
    ReLU, log_softmax over the classes."""

    def __init__(self, features=16, hidden=32, classes=7):
        super().__init__()
        self.w1 = nn.Linear(features, hidden)
        self.w2 = nn.Linear(hidden, classes)

    def forward(self, x, adj):
        h = torch.relu(adj @ self.w1(x))
        return (adj @ self.w2(h)).log_softmax(-1)


def _gcn():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    n = 50
    edges = np.triu(rng.random((n, n)) < 0.08, 1)
    adj = (edges | edges.T).astype(np.float32) + np.eye(n, dtype=np.float32)
    scale = 1.0 / np.sqrt(adj.sum(1))
    adj = (adj * scale[:, None] * scale[None, :])[None].astype(np.float32)
    x = rng.standard_normal((1, n, 16)).astype(np.float32)
    return GCN(), {"x": x, "adj": adj}, {"x": {0: "batch", 1: "nodes"},
                                         "adj": {0: "batch", 1: "nodes", 2: "nodes"}}


class TinyYOLO(nn.Module):
    """Tiny YOLO-style detector: SiLU backbone with stride-2 convs, an
    upsample-and-concat FPN, heads reshaped to [B, anchors, H*W, 5+classes]
    with sigmoid on xy, objectness and classes; two scales out."""

    def __init__(self, classes=3, anchors=3):
        super().__init__()
        self.anchors, self.classes = anchors, classes
        self.backbone = nn.Sequential(_cbr(3, 16, 3, 2, nn.SiLU), _cbr(16, 32, 3, 2, nn.SiLU),
                                      _cbr(32, 64, 3, 2, nn.SiLU))
        self.down = _cbr(64, 128, 3, 2, nn.SiLU)
        self.lateral = _cbr(128, 64, 1, 1, nn.SiLU)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = _cbr(128, 64, 3, 1, nn.SiLU)
        self.head_coarse = nn.Conv2d(128, anchors * (5 + classes), 1)
        self.head_fine = nn.Conv2d(64, anchors * (5 + classes), 1)

    def decode(self, p):
        b, _, h, w = p.shape
        p = p.view(b, self.anchors, 5 + self.classes, h * w).permute(0, 1, 3, 2)
        return torch.cat([p[..., :2].sigmoid(), p[..., 2:4], p[..., 4:].sigmoid()], -1)

    def forward(self, x):
        fine = self.backbone(x)
        coarse = self.down(fine)
        fused = self.fuse(torch.cat([self.up(self.lateral(coarse)), fine], 1))
        return self.decode(self.head_coarse(coarse)), self.decode(self.head_fine(fused))


def _yolo_tiny_head():
    torch.manual_seed(SEED)
    return _trained_norms(TinyYOLO()), {"x": _normal(1, 3, 128, 128)}, {"x": {0: "batch"}}


class NeRFMLP(nn.Module):
    """NeRF MLP: sin/cos positional encoding of frequency-scaled coordinates,
    a skip concatenation of the encoding, sigmoid rgb and relu density."""

    def __init__(self, freqs=6, width=64):
        super().__init__()
        self.register_buffer("scales", 2.0 ** torch.arange(freqs, dtype=torch.float32) * math.pi)
        enc = 3 + 6 * freqs
        self.l1 = nn.Linear(enc, width)
        self.l2 = nn.Linear(width, width)
        self.l3 = nn.Linear(width + enc, width)
        self.l4 = nn.Linear(width, width)
        self.rgb = nn.Linear(width, 3)
        self.density = nn.Linear(width, 1)
        nn.init.constant_(self.density.bias, 0.1)  # some space occupied, as when trained

    def forward(self, points):
        scaled = (points[..., None] * self.scales).flatten(-2)
        enc = torch.cat([points, torch.sin(scaled), torch.cos(scaled)], -1)
        h = torch.relu(self.l2(torch.relu(self.l1(enc))))
        h = torch.relu(self.l4(torch.relu(self.l3(torch.cat([h, enc], -1)))))
        return torch.sigmoid(self.rgb(h)), torch.relu(self.density(h))


def _nerf_mlp():
    torch.manual_seed(SEED)
    points = np.random.default_rng(SEED).uniform(-1, 1, (1024, 3)).astype(np.float32)
    return NeRFMLP(), {"points": points}, {"points": {0: "points"}}


class LSTMLanguageModel(nn.Module):
    """Word-level LM: embedding, 2-layer LSTM, projection tied to the embedding."""

    def __init__(self, vocab=1000, width=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.lstm = nn.LSTM(width, width, num_layers=2, batch_first=True)
        self.head = nn.Linear(width, vocab)
        self.head.weight = self.embed.weight

    def forward(self, ids):
        h, _ = self.lstm(self.embed(ids))
        return self.head(h)


def _lstm_lm():
    torch.manual_seed(SEED)
    return LSTMLanguageModel(), {"ids": _ids(1000, 2, 30)}, {"ids": {0: "batch", 1: "seq"}}


class GRUAttentionSeq2Seq(nn.Module):
    """Bidirectional GRU encoder, GRU decoder with Bahdanau (additive)
    attention, teacher forced by a Python loop the exporter unrolls."""

    def __init__(self, src_vocab=400, tgt_vocab=300, width=64, steps=8):
        super().__init__()
        self.steps = steps
        self.src_embed = nn.Embedding(src_vocab, width)
        self.encoder = nn.GRU(width, width, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * width, width)
        self.tgt_embed = nn.Embedding(tgt_vocab, width)
        self.keys = nn.Linear(2 * width, width, bias=False)
        self.query = nn.Linear(width, width)
        self.energy = nn.Linear(width, 1, bias=False)
        self.decoder = nn.GRU(3 * width, width, batch_first=True)
        self.out = nn.Linear(3 * width, tgt_vocab)

    def forward(self, src, tgt):
        enc, last = self.encoder(self.src_embed(src))
        h = torch.tanh(self.bridge(torch.cat([last[0], last[1]], -1)))[None]
        keys = self.keys(enc)
        emb = self.tgt_embed(tgt)
        logits = []
        for t in range(self.steps):
            scores = self.energy(torch.tanh(keys + self.query(h[0])[:, None])).squeeze(-1)
            context = torch.bmm(scores.softmax(-1)[:, None], enc)
            y, h = self.decoder(torch.cat([emb[:, t:t + 1], context], -1), h)
            logits.append(self.out(torch.cat([y, context], -1)))
        return torch.cat(logits, 1).log_softmax(-1)


def _gru_seq2seq_attention():
    torch.manual_seed(SEED)
    inputs = {"src": _ids(400, 1, 15), "tgt": _ids(300, 1, 8)}
    return GRUAttentionSeq2Seq(), inputs, {"src": {0: "batch"}, "tgt": {0: "batch"}}


WRITTEN = {
    # Dense prediction and super-resolution.
    "unet": _unet,
    "espcn": _espcn,
    "fsrcnn": _fsrcnn,
    "conv_autoencoder": _conv_autoencoder,
    "yolo_tiny_head": _yolo_tiny_head,
    # Classification of images, points, audio features.
    "mlp_mixer": _mlp_mixer,
    "pointnet": _pointnet,
    "ds_cnn_kws": _ds_cnn_kws,
    "crnn": _crnn,
    # Text and sequences.
    "gpt_decoder": _gpt_decoder,
    "seq2seq_transformer": _seq2seq_transformer,
    "lstm_lm": _lstm_lm,
    "gru_seq2seq_attention": _gru_seq2seq_attention,
    "text_cnn": _text_cnn,
    "tcn": _tcn,
    # Recommenders, graphs, coordinate MLPs.
    "dlrm": _dlrm,
    "gcn": _gcn,
    "nerf_mlp": _nerf_mlp,
}
