#!/usr/bin/env python3
"""Writes the fuzzers' committed seed inputs (harness/fuzz/seeds/): journals made of the results of
the test reports, a catalog manifest cut down from a real one, and device job and result files in
the binary format of harness/src/run/device_protocol.hpp. Run it from the repository root; the
output is committed, so nothing runs it at build time."""
import json
import pathlib
import struct

HERE = pathlib.Path(__file__).parent
DATA = HERE.parent.parent / "tests" / "data" / "reports"


def journals():
    out = HERE / "journal"
    for name in ("same.json", "withdrawn.json", "old.json"):
        report = json.loads((DATA / name).read_text())
        lines = [json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in report["results"]]
        (out / name.replace(".json", ".jsonl")).write_text("\n".join(lines) + "\n")
    # A journal whose last line was cut short (the run died while writing it).
    report = json.loads((DATA / "same.json").read_text())
    line = json.dumps(report["results"][0], separators=(",", ":"))
    (out / "cut-short.jsonl").write_text(line + "\n" + line[: len(line) // 2])


def manifest():
    asm = lambda kernel, target, isa, accepted, attempted, message, error: {
        "kernel": kernel, "target": target, "ptx_isa": isa, "attempted": attempted, "accepted": accepted,
        "message": message, "cubin": "cache/29511b6696b974bc19dfaefdc1ef5fe5.cubin" if accepted else "",
        "entry": kernel.replace(".", "_") + "_acb9675b" if accepted else "",
        "ptx": "cache/bf3231edfc6dac4db0bd2caa46351304.ptx",
        "instruction": "ldmatrix.sync.aligned.m8n8.x1.b16 {%frag0}, [%addr64_0];", "error": error}
    m = {"schema_version": 4, "ptxas_version": "13.0.88", "cuda_release": "13.0", "toolkit_ptx_isa": "9.0",
         "targets": ["sm_75", "sm_80", "sm_90", "sm_90a"],
         "assemblies": [
             asm("ldmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_75", "6.5", True, True, "", ""),
             asm("ldmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_90", "7.8", False, True,
                 "ptxas ldmatrix.ptx, line 12; error   : Feature not supported", ""),
             asm("ldmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_90a", "8.0", False, False,
                 "PTX ISA 9.0 cannot express this target", ""),
             asm("ldmatrix.sync.aligned.m8n8.x1.b16_a64", "sm_80", "7.0", False, True, "",
                 "ptxas killed by signal 9")]}
    (HERE / "manifest" / "manifest.json").write_text(json.dumps(m, indent=1) + "\n")


def u32(v): return struct.pack("<I", v)
def i32(v): return struct.pack("<i", v)
def u64(v): return struct.pack("<Q", v)
def string(s): b = s.encode(); return u32(len(b)) + b
def vec(fmt, xs): return u64(len(xs)) + b"".join(struct.pack("<" + fmt, x) for x in xs)


def job(id, warps, tile, steps, regs, said_steps=None):  # said_steps: a shape the buffers do not match
    threads = warps * 32
    return (u32(id) + string("/tmp/catalog/cache/0123.cubin") + string("ldmatrix_x1_acb9675b") +
            string("ldmatrix_x1/identity") + i32(warps) + i32(tile) + i32(said_steps or steps) + i32(regs) +
            vec("I", [(t * 16) % (warps * tile) for t in range(threads * steps)]) +
            vec("B", [b & 0xFF for b in range(warps * tile)]) + vec("I", list(range(threads * regs))))


def result(id, ok, error, smem, regs):
    return b"PCR1" + u32(id) + bytes([1 if ok else 0]) + string(error) + vec("B", smem) + vec("I", regs)


def device():
    # The first byte picks the reader (fuzz_device_results.cpp): 0 read_jobs, 1 read_results.
    out = HERE / "device"
    (out / "jobs-one").write_bytes(b"\0" + b"PTXCTSJ2" + u32(1) + job(0, 1, 16, 1, 1))
    (out / "jobs-two").write_bytes(b"\0" + b"PTXCTSJ2" + u32(2) + job(3, 1, 8, 2, 1) + job(4, 2, 4, 1, 2))
    (out / "jobs-bad-shape").write_bytes(b"\0" + b"PTXCTSJ2" + u32(1) + job(5, 1, 16, 1, 1, said_steps=2))
    ok = result(0, True, "", list(range(16)), list(range(32)))
    fault = result(1, False, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", [], [])
    (out / "results-two").write_bytes(b"\1" + ok + fault)
    (out / "results-cut-short").write_bytes(b"\1" + ok + fault[:-3])


if __name__ == "__main__":
    journals()
    manifest()
    device()
