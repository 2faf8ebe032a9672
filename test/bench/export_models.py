#!/usr/bin/env python3
"""Exports the benchmark models of test/bench/compare.py to ONNX (opset 13,
random weights, seed 0):

  resnet18.onnx, mobilenet_v2.onnx  torchvision, input `input` 1x3x224x224
                                    (dynamic batch axis)
  transformer_encoder.onnx          6-layer TransformerEncoder, d_model 384,
                                    6 heads, feed-forward 1536, batch_first,
                                    input `x` 1x128x384 (static)
  lstm_gru.onnx                     audio model: input `mel` 1x100x80 (batch,
                                    time, mels) -> LSTM(80->256) ->
                                    GRU(256->256) -> Linear(256->32) on every
                                    step, output `out` 1x100x32 (static)

A model that fails to export is reported and skipped.

Uses Debian's PyTorch (`apt-get install python3-torch python3-torchvision`),
so run it with the system Python: /usr/bin/python3 test/bench/export_models.py OUT
"""
import os
import sys
import traceback

import torch
import torchvision


class LstmGru(torch.nn.Module):
    def __init__(self, mels=80, hidden=256, classes=32):
        super().__init__()
        self.lstm = torch.nn.LSTM(mels, hidden, batch_first=True)
        self.gru = torch.nn.GRU(hidden, hidden, batch_first=True)
        self.head = torch.nn.Linear(hidden, classes)

    def forward(self, mel):
        x, _ = self.lstm(mel)
        x, _ = self.gru(x)
        return self.head(x)


def export_torchvision(out, name):
    model = getattr(torchvision.models, name)(weights=None).eval()
    path = os.path.join(out, name + ".onnx")
    torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=13,
                      input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}})
    return path


def export_transformer_encoder(out):
    encoder = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(d_model=384, nhead=6, dim_feedforward=1536,
                                         dropout=0.0, batch_first=True),
        num_layers=6).eval()
    # TransformerEncoder deep-copies one layer: give every layer its own
    # weights (the exporter would otherwise share the identical tensors).
    for parameter in encoder.parameters():
        if parameter.dim() > 1:
            torch.nn.init.xavier_uniform_(parameter)
    path = os.path.join(out, "transformer_encoder.onnx")
    # With gradients enabled the layers take their plain (exportable) path,
    # not the fused inference kernel (which torch 1.13 cannot export).
    with torch.enable_grad():
        torch.onnx.export(encoder, torch.randn(1, 128, 384), path, opset_version=13,
                          input_names=["x"], output_names=["hidden"])
    return path


def export_lstm_gru(out):
    model = LstmGru().eval()
    path = os.path.join(out, "lstm_gru.onnx")
    torch.onnx.export(model, torch.randn(1, 100, 80), path, opset_version=13,
                      input_names=["mel"], output_names=["out"])
    return path


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench-models"
    os.makedirs(out, exist_ok=True)
    exports = [("resnet18", lambda: export_torchvision(out, "resnet18")),
               ("mobilenet_v2", lambda: export_torchvision(out, "mobilenet_v2")),
               ("transformer_encoder", lambda: export_transformer_encoder(out)),
               ("lstm_gru", lambda: export_lstm_gru(out))]
    failed = []
    for name, export in exports:
        torch.manual_seed(0)
        try:
            print("wrote", export(), flush=True)
        except Exception:  # report, keep exporting the others
            print(f"{name}: export failed:", file=sys.stderr)
            traceback.print_exc()
            failed.append(name)
    if failed:
        print("not exported:", ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
