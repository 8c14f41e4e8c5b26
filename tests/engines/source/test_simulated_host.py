"""toolchain/simulated_host: a fresh worker-like process looks like a one-GPU MI300X host after install()."""
import json
import subprocess
import sys
import textwrap

from tests.engines.source.conftest import ROOT


def run_fresh(code: str) -> dict:
    """Run code in a new interpreter (as the spawned worker is); it prints one JSON object."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_device_queries_streams_events_and_cuda_tensors():
    out = run_fresh("""
        import json, torch
        from eval import device
        from toolchain import simulated_host
        before = device.detect("auto")
        simulated_host.install()
        simulated_host.install()  # idempotent
        p = torch.cuda.get_device_properties(0)
        x = torch.empty(4, device="cuda")
        g = torch.Generator(device="cuda")
        g.manual_seed(1)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        with torch.cuda.stream(torch.cuda.Stream()):
            y = torch.ones(3).cuda() + torch.zeros(3, device=torch.device("cuda:0"))
        torch.cuda.synchronize()
        end.record()
        print(json.dumps({
            "before": before.kind, "kept": before.name,
            "available": torch.cuda.is_available(), "count": torch.cuda.device_count(),
            "name": torch.cuda.get_device_name(), "cus": p.multi_processor_count, "arch": p.gcnArchName,
            "memory_gib": p.total_memory / 2**30, "cc": [p.major, p.minor], "warp": p.warp_size,
            "current": torch.cuda.current_device(), "x_device": str(x.device), "is_cuda": x.is_cuda,
            "to": str(torch.ones(1).to("cuda").device), "rand": torch.rand(2, generator=g, device="cuda").tolist(),
            "y": y.tolist(), "elapsed_ok": start.elapsed_time(end) >= 0, "hip": torch.version.hip,
        }))
    """)
    assert out["before"] == "cpu" and out["kept"] == "cpu"
    assert (out["available"], out["count"], out["name"]) == (True, 1, "AMD Instinct MI300X")
    assert (out["cus"], out["arch"], out["memory_gib"], out["cc"], out["warp"]) == (
        304, "gfx942:sramecc+:xnack-", 192, [9, 4], 64)
    assert out["current"] == 0 and out["x_device"] == "cpu" and out["is_cuda"] and out["to"] == "cpu"
    assert len(out["rand"]) == 2 and out["y"] == [1.0, 1.0, 1.0] and out["elapsed_ok"] and out["hip"]


def test_a_torch_cuda_function_the_host_cannot_serve_says_so_by_name():
    out = run_fresh("""
        import json, torch
        from toolchain import simulated_host
        simulated_host.install()
        raised = {}
        for name in ("current_blas_handle", "caching_allocator_alloc", "get_sync_debug_mode"):
            try:
                getattr(torch.cuda, name)(64)
            except Exception as exc:
                raised[name] = f"{type(exc).__name__}: {exc}"
        print(json.dumps({"raised": raised, "stats": torch.cuda.memory_stats()}))
    """)
    for name, words in (("current_blas_handle", "the BLAS libraries"), ("caching_allocator_alloc", "allocator"),
                        ("get_sync_debug_mode", "torch's CUDA library")):
        assert out["raised"][name].startswith(f"RuntimeError: torch.cuda.{name} ("), out["raised"]
        assert words in out["raised"][name] and "is not available on the CPU engines" in out["raised"][name]
    assert out["stats"] == {}


def test_detection_before_install_is_not_fooled_and_install_reverts():
    out = run_fresh("""
        import json, torch
        from eval import device
        from toolchain import simulated_host
        info = device.detect("auto")
        simulated_host.install()
        after_install = torch.cuda.is_available()
        simulated_host.uninstall()
        print(json.dumps({"kind": info.kind, "arch": info.arch, "installed": after_install,
                          "reverted": torch.cuda.is_available(), "generator": torch.Generator.__name__}))
    """)
    assert out == {"kind": "cpu", "arch": "cpu", "installed": True, "reverted": False, "generator": "Generator"}


def test_cuda_graph_replay_reruns_torch_ops_and_emulated_kernels():
    out = run_fresh("""
        import json, torch
        from toolchain import simulated_host
        from tests.engines.source.conftest import REAL_WORLD_FUNCTIONS, build
        simulated_host.install()
        module = build("real_world", REAL_WORLD_FUNCTIONS)
        src = torch.zeros(64, device="cuda")
        out = torch.empty(64, device="cuda")
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            staged = src + 1             # a torch op whose output the graph owns
            module.run_buffer_copy(staged, out)
        src.fill_(10)
        graph.replay()
        print(json.dumps({"staged": staged[:2].tolist(), "out": out[:2].tolist(), "tail": out[-4:].tolist()}))
    """)
    assert out == {"staged": [11.0, 11.0], "out": [22.0, 22.0], "tail": [0.0] * 4}
