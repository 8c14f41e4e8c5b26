# Test submission (imported by the report, never run on a GPU): its HIP source is bz2-compressed
# and base85-encoded, and the call passes its sources by position. Only importing the file
# reveals the kernel, `bz2_kernel`.
import base64
import bz2

import torch.utils.cpp_extension

SOURCE = bz2.decompress(base64.b85decode(
    "LRx4!F+o`-Q(0t()@T3#Eq{PO5C{NBecK-dtON?b@84Q50V`tIN+L8<%%-P=^+OZX^#Ey*cpz$Er"
    "cm03ntFzYfB*miiV7Z@2m?T9000ddhTfeGsRqn6av(5IjaT)XCpTAbE<Vic;~D6n%~ni^!WM!xQ-"
    "sR+w+0ku?}##QTn$`w>M=r~Av(Q?h-wakd)OJRtfge~q3sQ*N)=+jq97ya@H53#M43fmq|8jL`(_"
    "fh$E4Qzo60otg*iImaUk<{Q)m_v;Z%?*UKO?}XyIk%JGS#$39%~jddQil136#oLCCTxQjM>lb<^l"
    "JF4E#h8P3fWDZwCAUK`nnYk=s5@O>>|aSRDG#NRFf*s3PE4&#8$DG)ZqOTss4ns-6?bB9S{ga|!B"
    "ISe8gMKz^1>=tR7P!|sAxLA>}TSkvMi@744C`d9x>ofo"
)).decode()

module = torch.utils.cpp_extension.load_inline("bz2_style", ["torch::Tensor run(torch::Tensor in, torch::Tensor out);"],
                                               [SOURCE], functions={"run": "doubles in into out"})


def custom_kernel(data):
    return module.run(data[0], data[4])
