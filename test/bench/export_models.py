#!/usr/bin/env python3
"""Exports resnet18, mobilenet_v2 (torchvision) and a transformer encoder
(2 layers, d_model 256, 4 heads, sequence 64) to ONNX, random weights, with
a dynamic batch dimension.

Uses Debian's PyTorch (`apt-get install python3-torch python3-torchvision`),
so run it with the system Python: /usr/bin/python3 test/bench/export_models.py OUT
"""
import os
import sys

import torch
import torchvision


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench-models"
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    x = torch.randn(1, 3, 224, 224)
    for name in ["resnet18", "mobilenet_v2"]:
        model = getattr(torchvision.models, name)(weights=None).eval()
        path = os.path.join(out, name + ".onnx")
        torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                          output_names=["logits"],
                          dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}})
        print("wrote", path)
    encoder = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                         dropout=0.0, batch_first=True),
        num_layers=2).eval()
    path = os.path.join(out, "transformer_encoder.onnx")
    # With gradients enabled the layers take their plain (exportable) path,
    # not the fused inference kernel.
    torch.onnx.export(encoder, torch.randn(1, 64, 256), path, opset_version=13,
                      input_names=["input"], output_names=["hidden"],
                      dynamic_axes={"input": {0: "N"}, "hidden": {0: "N"}})
    print("wrote", path)


if __name__ == "__main__":
    main()
