"""The PaddleOCR models with real weights that compare.py and
quantizer_accuracy.py use: taken from the PyPI wheel rapidocr-onnxruntime
(fetched with the running Python's pip when missing)."""
import glob
import os
import shutil
import subprocess
import sys
import zipfile

OCR_WHEEL = "rapidocr-onnxruntime==1.4.4"
OCR_FILES = ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx",
             "ch_ppocr_mobile_v2.0_cls_infer.onnx"]


def ensure_ocr(folder):
    """The folder holding the three PaddleOCR .onnx files: FOLDER itself, its
    rapidocr_onnxruntime/models/, or, when neither has them, FOLDER after
    downloading the wheel with pip and extracting its models there."""
    files = OCR_FILES
    for candidate in [folder, os.path.join(folder, "rapidocr_onnxruntime", "models")]:
        if all(os.path.exists(os.path.join(candidate, f)) for f in files):
            return candidate
    os.makedirs(folder, exist_ok=True)
    wheels = glob.glob(os.path.join(folder, "rapidocr_onnxruntime-*.whl"))
    if not wheels:
        print(f"fetching {OCR_WHEEL} into {folder}", file=sys.stderr)
        fetch = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                                OCR_WHEEL, "-d", folder], capture_output=True, text=True)
        if fetch.returncode != 0:
            print("pip download failed:\n" + fetch.stdout + fetch.stderr, file=sys.stderr)
            return folder
        wheels = glob.glob(os.path.join(folder, "rapidocr_onnxruntime-*.whl"))
    for wheel in wheels[:1]:
        with zipfile.ZipFile(wheel) as z:
            for member in z.namelist():
                if member.startswith("rapidocr_onnxruntime/models/") and member.endswith(".onnx"):
                    with z.open(member) as src, \
                            open(os.path.join(folder, os.path.basename(member)), "wb") as dst:
                        shutil.copyfileobj(src, dst)
    return folder
