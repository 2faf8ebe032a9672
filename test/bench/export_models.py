#!/usr/bin/env python3
"""Exports resnet18 and mobilenet_v2 (torchvision, random weights) to ONNX.

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


if __name__ == "__main__":
    main()
