"""The model zoo's architectures: how to build each with random weights
(fixed seed) and what realistic input it takes.

Runs under the Python that has PyTorch (Debian's python3-torch 1.13,
torchvision 0.14, torchaudio 0.13). Each entry maps a name to a function
returning (module, {input name: numpy array}, {input name: dynamic axes}).
Image models take a normal image-like tensor, text models token ids in
their vocabulary, audio models a waveform or a spectrogram: inputs that
keep activations away from degenerate values.
"""
import numpy as np
import torch
from torch import nn

SEED = 7


def _image(size=224, channels=3, batch=1):
    rng = np.random.default_rng(SEED)
    return rng.standard_normal((batch, channels, size, size)).astype(np.float32)


def _tv(name, size=224, **kwargs):
    def build():
        import torchvision
        torch.manual_seed(SEED)
        model = getattr(torchvision.models, name)(weights=None, **kwargs)
        return model, {"x": _image(size)}, {"x": {0: "batch"}}
    return build


def _tv_seg(name, size=224, **kwargs):
    def build():
        import torchvision
        torch.manual_seed(SEED)
        model = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None, aux_loss=False, **kwargs)

        class Out(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, x):
                return self.inner(x)["out"]
        return Out(model), {"x": _image(size)}, {"x": {0: "batch"}}
    return build


def _tv_video(name, **kwargs):
    def build():
        import torchvision
        torch.manual_seed(SEED)
        model = getattr(torchvision.models.video, name)(weights=None, **kwargs)
        rng = np.random.default_rng(SEED)
        clip = rng.standard_normal((1, 3, 8, 64, 64)).astype(np.float32)
        return model, {"x": clip}, {"x": {0: "batch"}}
    return build


def _tv_detection(name, size, **kwargs):
    """A detector's backbone and head, without the resizing transform and
    the box decoding + NMS that follow (their outputs are sorted lists)."""
    def build():
        import torchvision
        torch.manual_seed(SEED)
        model = getattr(torchvision.models.detection, name)(
            weights=None, weights_backbone=None, **kwargs)

        class Heads(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.backbone = inner.backbone
                self.head = inner.head

            def forward(self, x):
                features = list(self.backbone(x).values())
                out = self.head(features)
                return tuple(out[k] for k in sorted(out))
        return Heads(model), {"x": _image(size)}, {"x": {0: "batch"}}
    return build


class Encoder(nn.Module):
    """A transformer encoder over token ids, with a padding mask."""

    def __init__(self, vocab=1000, width=64, heads=4, layers=2, norm_first=False):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.pos = nn.Parameter(torch.randn(1, 128, width) * 0.02)
        layer = nn.TransformerEncoderLayer(width, heads, 4 * width, dropout=0.0,
                                           batch_first=True, norm_first=norm_first)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(width, 10)

    def forward(self, ids, mask):
        h = self.embed(ids) + self.pos[:, :ids.shape[1]]
        h = self.encoder(h, src_key_padding_mask=mask == 0)
        return self.head(h.mean(dim=1))


def _encoder(**kwargs):
    def build():
        torch.manual_seed(SEED)
        model = Encoder(**kwargs)
        rng = np.random.default_rng(SEED)
        ids = rng.integers(0, 1000, (2, 32)).astype(np.int64)
        mask = np.ones((2, 32), np.int64)
        mask[1, 20:] = 0
        return model, {"ids": ids, "mask": mask}, {"ids": {0: "batch", 1: "seq"},
                                                    "mask": {0: "batch", 1: "seq"}}
    return build


class AttentionMask(nn.Module):
    """Multi-head attention whose mask is expanded from [B, S] to
    [B, H, S, S] (PyTorch's expand idiom in the export)."""

    def __init__(self, width=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x, mask):
        b, s, w = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        shape = (b, s, self.heads, w // self.heads)
        q, k, v = (t.reshape(shape).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / (w // self.heads) ** 0.5
        full = mask[:, None, None, :].expand(b, self.heads, s, s)
        scores = scores.masked_fill(full == 0, -1e4)
        y = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, w)
        return self.out(y)


def _attention():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((2, 16, 64)).astype(np.float32)
    mask = np.ones((2, 16), np.int64)
    mask[0, 10:] = 0
    return AttentionMask(), {"x": x, "mask": mask}, {"x": {0: "batch", 1: "seq"},
                                                     "mask": {0: "batch", 1: "seq"}}


class RecurrentAudio(nn.Module):
    """Mel frames -> 2-layer LSTM -> bidirectional GRU -> classes."""

    def __init__(self, mels=40, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(mels, hidden, num_layers=2, batch_first=True)
        self.gru = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, 12)

    def forward(self, mel):
        h, _ = self.lstm(mel)
        h, _ = self.gru(h)
        return self.head(h)


def _recurrent():
    torch.manual_seed(SEED)
    mel = np.random.default_rng(SEED).standard_normal((1, 50, 40)).astype(np.float32)
    return RecurrentAudio(), {"mel": mel}, {"mel": {0: "batch", 1: "frames"}}


class StatefulGRU(nn.Module):
    """A streaming step: state in, state out."""

    def __init__(self, features=32, hidden=48):
        super().__init__()
        self.conv = nn.Conv1d(1, features, 8, stride=4)
        self.gru = nn.GRU(features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 4)

    def forward(self, audio, state):
        f = torch.relu(self.conv(audio)).transpose(1, 2)
        y, new_state = self.gru(f, state)
        return self.head(y), new_state


def _stateful():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    audio = rng.standard_normal((1, 1, 400)).astype(np.float32)
    state = rng.standard_normal((1, 1, 48)).astype(np.float32) * 0.1
    return StatefulGRU(), {"audio": audio, "state": state}, {"audio": {0: "batch"},
                                                             "state": {1: "batch"}}


def _torchaudio(name, samples=8000, **kwargs):
    def build():
        import torchaudio
        torch.manual_seed(SEED)
        model = getattr(torchaudio.models, name)(**kwargs)
        wave = np.random.default_rng(SEED).standard_normal((1, samples)).astype(np.float32)
        if name in ("Wav2Letter",):
            wave = wave.reshape(1, 1, samples)
        if name == "ConvTasNet":
            wave = wave.reshape(1, 1, samples)
        return model, {"audio": wave}, {"audio": {0: "batch"}}
    return build


def _wav2vec2():
    import torchaudio

    class Features(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = torchaudio.models.wav2vec2_model(
                extractor_mode="group_norm", extractor_conv_layer_config=None,
                extractor_conv_bias=False, encoder_embed_dim=96,
                encoder_projection_dropout=0.0, encoder_pos_conv_kernel=32,
                encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4,
                encoder_attention_dropout=0.0, encoder_ff_interm_features=192,
                encoder_ff_interm_dropout=0.0, encoder_dropout=0.0,
                encoder_layer_norm_first=False, encoder_layer_drop=0.0, aux_num_out=None)

        def forward(self, audio):
            return self.inner(audio)[0]
    torch.manual_seed(SEED)
    wave = np.random.default_rng(SEED).standard_normal((1, 8000)).astype(np.float32)
    return Features(), {"audio": wave}, {"audio": {0: "batch"}}


def _conformer():
    import torchaudio

    class Wrap(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = torchaudio.models.Conformer(
                input_dim=40, num_heads=4, ffn_dim=64, num_layers=2,
                depthwise_conv_kernel_size=15)

        def forward(self, features, lengths):
            return self.inner(features, lengths)[0]
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    feats = rng.standard_normal((1, 40, 40)).astype(np.float32)
    lengths = np.array([40], np.int64)
    return Wrap(), {"features": feats, "lengths": lengths}, {}


ARCHITECTURES = {
    # Image classification (torchvision).
    "alexnet": _tv("alexnet"),
    "vgg11": _tv("vgg11", size=64),
    "resnet18": _tv("resnet18"),
    "resnet50": _tv("resnet50", size=128),
    "resnext50_32x4d": _tv("resnext50_32x4d", size=128),
    "wide_resnet50_2": _tv("wide_resnet50_2", size=96),
    "mobilenet_v2": _tv("mobilenet_v2"),
    "mobilenet_v3_small": _tv("mobilenet_v3_small"),
    "mobilenet_v3_large": _tv("mobilenet_v3_large", size=160),
    "efficientnet_b0": _tv("efficientnet_b0", size=160),
    "efficientnet_v2_s": _tv("efficientnet_v2_s", size=128),
    "regnet_x_400mf": _tv("regnet_x_400mf", size=160),
    "regnet_y_400mf": _tv("regnet_y_400mf", size=160),
    "convnext_tiny": _tv("convnext_tiny", size=128),
    "shufflenet_v2_x0_5": _tv("shufflenet_v2_x0_5"),
    "squeezenet1_0": _tv("squeezenet1_0"),
    "squeezenet1_1": _tv("squeezenet1_1"),
    "densenet121": _tv("densenet121", size=128),
    "googlenet": _tv("googlenet", size=128, aux_logits=False, init_weights=True),
    "inception_v3": _tv("inception_v3", size=299, aux_logits=False, init_weights=True),
    "mnasnet0_5": _tv("mnasnet0_5"),
    "vit_b_16": _tv("vit_b_16"),
    "swin_t": _tv("swin_t", size=224),
    "maxvit_t": _tv("maxvit_t", size=224),
    # Detection heads (torchvision).
    "ssdlite320_mobilenet_v3_large": _tv_detection(
        "ssdlite320_mobilenet_v3_large", 320, num_classes=10),
    "retinanet_resnet50_fpn": _tv_detection("retinanet_resnet50_fpn", 128,
                                            num_classes=10),
    "fcos_resnet50_fpn": _tv_detection("fcos_resnet50_fpn", 128, num_classes=10),
    # Segmentation (torchvision).
    "fcn_resnet50": _tv_seg("fcn_resnet50", size=128),
    "deeplabv3_mobilenet_v3_large": _tv_seg("deeplabv3_mobilenet_v3_large", size=160),
    "lraspp_mobilenet_v3_large": _tv_seg("lraspp_mobilenet_v3_large", size=160),
    "deeplabv3_resnet50": _tv_seg("deeplabv3_resnet50", size=128),
    # Video (torchvision).
    "r3d_18": _tv_video("r3d_18"),
    "mc3_18": _tv_video("mc3_18"),
    "r2plus1d_18": _tv_video("r2plus1d_18"),
    # Sequence models written here.
    "transformer_encoder": _encoder(),
    "transformer_encoder_prenorm": _encoder(norm_first=True),
    "attention_mask": _attention,
    "lstm_gru_audio": _recurrent,
    "stateful_gru": _stateful,
    # Audio (torchaudio).
    "wav2letter": _torchaudio("Wav2Letter", num_classes=20, input_type="waveform",
                              num_features=1),
    "conv_tasnet": _torchaudio("ConvTasNet", num_sources=2, enc_kernel_size=16,
                               enc_num_feats=64, msk_kernel_size=3, msk_num_feats=32,
                               msk_num_hidden_feats=64, msk_num_layers=2,
                               msk_num_stacks=1),
    "wav2vec2_small": _wav2vec2,
    "conformer": _conformer,
}

# Models written for the zoo (written.py).
from written import WRITTEN  # noqa: E402

ARCHITECTURES.update(WRITTEN)

# timm and transformers models built from configs (hub.py; its builders
# import those packages, which .venv-torch has).
from hub import HUB  # noqa: E402

ARCHITECTURES.update(HUB)
