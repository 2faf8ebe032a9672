"""Architectures from the model hubs' libraries: timm image models and
transformers text, speech and vision models, each built from its config with
random weights (fixed seed); nothing is downloaded.

Runs under the Python that has PyTorch 1.13 plus timm 0.9 and transformers
4.40 (the .venv-torch virtual environment); timm and transformers are
imported inside the builders, so this module imports where they are missing.
Like architectures.py, each entry maps a name to a function returning
(module, {input name: numpy array}, {input name: dynamic axes}).
Transformers models are small (hidden 64, 2 layers, 4 heads, vocabulary
1000) and wrapped to return tensors; their inputs are token ids inside the
vocabulary with an attention mask that pads part of the second sequence.
Every model's weights are livened (_liven): degenerate initial values are
redrawn and batch norms calibrated, so that each branch moves the output.
"""
import numpy as np
import torch
from torch import nn

SEED = 7
VOCAB = 1000
TEXT_AXES = {0: "batch", 1: "seq"}
POOLED = ["last_hidden_state", "pooler_output"]
HIDDEN = ["last_hidden_state"]


def _image(size=224, channels=3, batch=1):
    rng = np.random.default_rng(SEED)
    return rng.standard_normal((batch, channels, size, size)).astype(np.float32)


def _liven(model, *calibration):
    """Redraws (seeded) what random init leaves degenerate, so that every
    branch moves the compared output: tensors that are zero or near zero
    (zero-initialised heads and last norms of residual blocks, 1e-5 layer
    scales, relative position biases) and linear layers drawn at std 0.02
    (attention near uniform). Batch norms get the statistics of one
    training-mode pass over the calibration inputs: with their identity
    statistics, activations in deep random networks grow to 1e16."""
    gen = torch.Generator().manual_seed(SEED)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.Linear):
                module.weight.normal_(0.0, module.in_features ** -0.5, generator=gen)
        for name, param in model.named_parameters():
            if param.numel() and param.abs().max() < 1e-3:
                if param.dim() > 1 or name.endswith("bias"):
                    param.normal_(0.0, 0.02, generator=gen)
                else:
                    param.copy_(torch.rand(param.shape, generator=gen) * 0.8 + 0.2)
        norms = [m for m in model.modules()
                 if isinstance(m, nn.modules.batchnorm._BatchNorm) and m.track_running_stats]
        if norms and calibration:
            for norm in norms:
                norm.reset_running_stats()
                norm.momentum = None  # a plain average: this pass's statistics
            model.train()
            model(*calibration)
            for norm in norms:
                norm.momentum = 0.1
    return model.eval()


def _timm(name, size=224, **kwargs):
    def build():
        import timm
        torch.manual_seed(SEED)
        model = timm.create_model(name, pretrained=False, num_classes=10, **kwargs)
        calibration = torch.from_numpy(_image(size, batch=2))
        return _liven(model, calibration), {"x": _image(size)}, {"x": {0: "batch"}}
    return build


def _convmixer():
    """timm's ConvMixer, small (convmixer_768_32 is 20 GMACs); its
    padding="same" convolutions get explicit padding, which torch 1.13 can
    export."""
    from timm.models.convmixer import ConvMixer
    torch.manual_seed(SEED)
    model = ConvMixer(dim=128, depth=4, kernel_size=9, patch_size=4, num_classes=10)
    for module in model.modules():
        if isinstance(module, nn.Conv2d) and module.padding == "same":
            module.padding = tuple(k // 2 for k in module.kernel_size)
    model = _liven(model, torch.from_numpy(_image(128, batch=2)))
    return model, {"x": _image(128)}, {"x": {0: "batch"}}


def _text(batch=2, seq=16, low=3, high=VOCAB):
    """Token ids in [low, high) and a mask padding the second sequence's tail."""
    rng = np.random.default_rng(SEED)
    ids = rng.integers(low, high, (batch, seq)).astype(np.int64)
    mask = np.ones((batch, seq), np.int64)
    mask[1, seq * 5 // 8:] = 0
    return ids, mask


class Outputs(nn.Module):
    """Calls a transformers model (its weights livened) with its inputs as
    keywords, in the order given, and returns the named fields of its output
    as tensors."""

    def __init__(self, inner, inputs, outputs, **options):
        super().__init__()
        self.inner = _liven(inner)
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.options = options

    def forward(self, *args):
        result = self.inner(**dict(zip(self.inputs, args)), **self.options, return_dict=True)
        values = tuple(result[name] for name in self.outputs)
        return values[0] if len(values) == 1 else values


def _text_model(model, outputs=HIDDEN, **options):
    """A text model on input_ids and attention_mask (batch and seq dynamic)."""
    ids, mask = _text()
    inputs = {"input_ids": ids, "attention_mask": mask}
    return (Outputs(model, inputs, outputs, **options), inputs,
            {name: TEXT_AXES for name in inputs})


def _encoder(config_name, model_name, outputs, **config):
    """A BERT-like encoder: hidden 64, 2 layers, 4 heads, intermediate 128."""
    def build():
        import transformers
        torch.manual_seed(SEED)
        settings = dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128,
                        max_position_embeddings=128)
        settings.update(config)
        model = getattr(transformers, model_name)(
            getattr(transformers, config_name)(**settings))
        return _text_model(model, outputs)
    return build


def _distilbert():
    import transformers
    torch.manual_seed(SEED)
    config = transformers.DistilBertConfig(vocab_size=VOCAB, dim=64, n_layers=2, n_heads=4,
                                           hidden_dim=128, max_position_embeddings=128)
    return _text_model(transformers.DistilBertModel(config))


def _gpt2():
    import transformers
    torch.manual_seed(SEED)
    config = transformers.GPT2Config(vocab_size=VOCAB, n_positions=128, n_embd=64, n_layer=2,
                                     n_head=4, n_inner=128, use_cache=False)
    return _text_model(transformers.GPT2Model(config), use_cache=False)


def _qwen2():
    """A Llama-style decoder (RMSNorm, rotary positions, SwiGLU, grouped
    query attention); Llama itself builds its causal mask with triu, which
    opset 13 lacks, and so does a sliding window's tril."""
    import transformers
    torch.manual_seed(SEED)
    config = transformers.Qwen2Config(vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
                                      num_hidden_layers=2, num_attention_heads=4,
                                      num_key_value_heads=2, max_position_embeddings=128,
                                      sliding_window=None, use_cache=False)
    return _text_model(transformers.Qwen2Model(config), use_cache=False)


def _t5_config():
    import transformers
    return transformers.T5Config(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128,
                                 num_layers=2, num_decoder_layers=2, num_heads=4,
                                 relative_attention_num_buckets=16, decoder_start_token_id=0,
                                 use_cache=False)


def _t5_encoder():
    import transformers
    torch.manual_seed(SEED)
    return _text_model(transformers.T5EncoderModel(_t5_config()))


def _seq2seq(inner):
    """input_ids, attention_mask and decoder_input_ids (8 tokens) -> the
    decoder's last hidden state and the encoder's."""
    ids, mask = _text()
    decoder = np.random.default_rng(SEED + 1).integers(3, VOCAB, (2, 8)).astype(np.int64)
    inputs = {"input_ids": ids, "attention_mask": mask, "decoder_input_ids": decoder}
    model = Outputs(inner, inputs, HIDDEN + ["encoder_last_hidden_state"], use_cache=False)
    return model, inputs, {"input_ids": TEXT_AXES, "attention_mask": TEXT_AXES,
                           "decoder_input_ids": {0: "batch", 1: "decoder_seq"}}


def _t5():
    import transformers
    torch.manual_seed(SEED)
    return _seq2seq(transformers.T5Model(_t5_config()))


def _bart():
    import transformers
    torch.manual_seed(SEED)
    config = transformers.BartConfig(vocab_size=VOCAB, d_model=64, encoder_layers=2,
                                     decoder_layers=2, encoder_attention_heads=4,
                                     decoder_attention_heads=4, encoder_ffn_dim=128,
                                     decoder_ffn_dim=128, max_position_embeddings=128,
                                     use_cache=False)
    return _seq2seq(transformers.BartModel(config))


def _whisper_encoder():
    import transformers
    from transformers.models.whisper.modeling_whisper import WhisperEncoder
    torch.manual_seed(SEED)
    positions = 32
    config = transformers.WhisperConfig(vocab_size=VOCAB, num_mel_bins=80, d_model=64,
                                        encoder_layers=2, encoder_attention_heads=4,
                                        decoder_layers=2, decoder_attention_heads=4,
                                        encoder_ffn_dim=128, decoder_ffn_dim=128,
                                        max_source_positions=positions,
                                        max_target_positions=64)
    rng = np.random.default_rng(SEED)
    features = rng.standard_normal((1, 80, 2 * positions)).astype(np.float32)
    inputs = {"input_features": features}
    model = Outputs(WhisperEncoder(config), inputs, HIDDEN)
    return model, inputs, {"input_features": {0: "batch"}}


def _vision(config_name, model_name, **config):
    """A ViT-style model on a 64x64 image in 8x8 patches."""
    def build():
        import transformers
        torch.manual_seed(SEED)
        settings = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, image_size=64, patch_size=8)
        settings.update(config)
        model = getattr(transformers, model_name)(
            getattr(transformers, config_name)(**settings))
        inputs = {"pixel_values": _image(64)}
        return Outputs(model, inputs, POOLED), inputs, {"pixel_values": {0: "batch"}}
    return build


def _clip_text():
    """CLIP's text tower, causal; pools at the end-of-text token."""
    import transformers
    torch.manual_seed(SEED)
    eos = VOCAB - 1
    config = transformers.CLIPTextConfig(vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
                                         num_hidden_layers=2, num_attention_heads=4,
                                         max_position_embeddings=64, pad_token_id=1,
                                         bos_token_id=0, eos_token_id=eos)
    model, inputs, axes = _text_model(transformers.CLIPTextModel(config), POOLED)
    ids = inputs["input_ids"]  # bos first, eos last: pooled at eos
    ids[:, 0] = 0
    ids[ids == eos] = eos - 1
    ids[0, -1] = eos
    ids[1, inputs["attention_mask"][1].sum() - 1] = eos
    return model, inputs, axes


HUB = {
    # Text encoders (transformers).
    "bert": _encoder("BertConfig", "BertModel", POOLED),
    "distilbert": _distilbert,
    "roberta": _encoder("RobertaConfig", "RobertaModel", POOLED, pad_token_id=1),
    "albert": _encoder("AlbertConfig", "AlbertModel", POOLED, embedding_size=32),
    "electra": _encoder("ElectraConfig", "ElectraModel", HIDDEN, embedding_size=32),
    "deberta_v2": _encoder("DebertaV2Config", "DebertaV2Model", HIDDEN,
                           relative_attention=True, position_buckets=32,
                           pos_att_type=["p2c", "c2p"]),
    "mobilebert": _encoder("MobileBertConfig", "MobileBertModel", POOLED, embedding_size=32,
                           intra_bottleneck_size=32, true_hidden_size=32,
                           num_feedforward_networks=2),
    # Decoders and encoder-decoders (transformers).
    "gpt2": _gpt2,
    "qwen2": _qwen2,
    "t5_encoder": _t5_encoder,
    "t5": _t5,
    "bart": _bart,
    # Speech and vision (transformers).
    "whisper_encoder": _whisper_encoder,
    "vit_hf": _vision("ViTConfig", "ViTModel"),
    "clip_text": _clip_text,
    "clip_vision": _vision("CLIPVisionConfig", "CLIPVisionModel"),
    # Image classification (timm), families torchvision does not have.
    "timm_mobilevit_xxs": _timm("mobilevit_xxs", 128),
    "timm_levit_128s": _timm("levit_128s", 224),
    "timm_poolformer_s12": _timm("poolformer_s12", 128),
    "timm_ghostnet_100": _timm("ghostnet_100", 128),
    "timm_rexnet_100": _timm("rexnet_100", 128),
    "timm_hrnet_w18_small": _timm("hrnet_w18_small", 128),
    "timm_dla34": _timm("dla34", 128),
    "timm_cspresnet50": _timm("cspresnet50", 128),
    "timm_efficientformer_l1": _timm("efficientformer_l1", 224),
    "timm_edgenext_xx_small": _timm("edgenext_xx_small", 128),
    "timm_mixnet_s": _timm("mixnet_s", 128),
    "timm_dpn68": _timm("dpn68", 128),
    "timm_ese_vovnet19b_dw": _timm("ese_vovnet19b_dw", 128),
    "timm_repvgg_a0": _timm("repvgg_a0", 128),
    "timm_convmixer": _convmixer,
    "timm_coat_lite_tiny": _timm("coat_lite_tiny", 224),
    "timm_pit_ti_224": _timm("pit_ti_224", 224),
    "timm_gmlp_ti16_224": _timm("gmlp_ti16_224", 224),
    "timm_crossvit_tiny_240": _timm("crossvit_tiny_240", 240),
    "timm_xcit_nano_12_p16_224": _timm("xcit_nano_12_p16_224", 224),
    "timm_mobileone_s0": _timm("mobileone_s0", 128),
    "timm_fastvit_t8": _timm("fastvit_t8", 128),
    "timm_efficientvit_b0": _timm("efficientvit_b0", 128),
    "timm_selecsls42b": _timm("selecsls42b", 128),
    "timm_nf_resnet26": _timm("nf_resnet26", 128),
    "timm_pvt_v2_b0": _timm("pvt_v2_b0", 128),
    "timm_convit_tiny": _timm("convit_tiny", 224),
    "timm_resnest14d": _timm("resnest14d", 128),
    "timm_eva02_tiny": _timm("eva02_tiny_patch14_224", 224),
}
