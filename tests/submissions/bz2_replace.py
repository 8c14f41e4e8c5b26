#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: a bz2-compressed (base85) source template specialised with str.replace before
# the build; extern __shared__ (dynamic LDS); __launch_bounds__(threads, 2).
import base64
import bz2

from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

_TEMPLATE = bz2.decompress(base64.b85decode(
    "LRx4!F+o`-Q(5CR{^tMyp<jSd5J-RhUp{P{3cv5)`alC6ZQW)-"
    "05sA>^q#4*PeNqS@@jgFjKwqul=RW5pj9`frlu3r%_f+GO*9%91ZWKz3`F!zDAP>_fM{p{8UO$QBuGsrnJMiwo{dw*GL5A2k5JQ1"
    "7)DP=sz?sbJ#Ut-u@cuRGL1HsguXibDFZG6Knqv7@J^W}ijp_;vd(LJ<0Hg8yf4Zd1&x0K^b-"
    "n4B%xo4)}seHX!f8R8W~L`zy($pAv`OXt~z365fNCWE&v9A62fNdVwk;SHR`s~XZSxGuPHi3*N{NXQ4d|Rg>sadp-rzTL`X=4-"
    "~g1s<TR}yRfr%XSQV*O)9cyrF!3nxcBJc{Hf1E}jT;?Be2iobBy5^i%|dF1p9$b`6o5Q$HTN8BgY@7I5KJT^GGikt_E-"
    "o<K_Qz1lH^tsDO+Y-"
    "N?N95U+vPhJVV%Aj?>L?B$Mo1<(Vu|cxV=&{88SIEcNt`vC3Yek&~rh(##^wC%Jd{_l1EHVotSCG9xpFE*k!}V*q+xb$nNrU7)%q"
    "+S{(O00OUi1^_Yc?om?E^p*MRH?EZI!JXYy+fxxJN#Ps7#r70LCH)R-"
    "Bu)F&%<f)Hzrhi)%7CZCh%E8JT7PW&31*HQg)`9hO3l03LTVrxfyz+rdUycVVfv$W=uLDhv78(YE@dz{vf@67`>M>|!L?s7o@$fR"
    ";Jdg3qC~5bN8Q?aBAvX7L0#Mq+==jOgC@57h7u_Vh1n51`U_Hgu%h`|HV#H0*lG@W?KczSQasbirrSn<wj&d1N=dmmhQ!dM!L#3l"
    "Ev4`iv0xnszP1nx;w8)X14L?8*Lz-"
    "{ut6e4+ShcciIif~ar3gp5w61QQ6wu6sfc$1S6S5BDKsi8(V{;*wpF0LR14t*{9nk)7i|OdArOvf8P`I2UdeJ)6^ids(VoV#Wf<U"
    "dA|*t6)k2^RlHRillYz7`O{qL07zFn+tA!(*3hzcfkh?4&Wsz`rT_g`~AkAsVqX67-MOU<C&HT>3U--L{DZ+$@8L#&^"
)).decode()

HIP_SRC = _TEMPLATE.replace("{{THREADS}}", "128").replace("{{SCALE_BLOCK}}", "128")
module = load_inline(
    name="corpus_bz2_replace",
    cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);",
    cuda_sources=HIP_SRC,
    functions="fp8_mm",
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-O3", "-munsafe-fp-atomics"],
)


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
