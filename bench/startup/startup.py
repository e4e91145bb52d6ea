#!/usr/bin/env python3
"""Start-up cost of rave's commands, measured in one run (figures in bench/README.md, "Command start-up").

    .venv/bin/python bench/startup/startup.py [--rave build/apps/rave] [--runs 100]

Each case runs --runs times in turn (cases interleaved, so load changes hit all alike); the CPU time
of a run (user + system) is the difference of getrusage(RUSAGE_CHILDREN) around it; peak RSS is
/usr/bin/time's %M of one extra run. /bin/true and an empty C program linked to the libraries that
`rave` links (Z3, TBB, pugixml, zlib, libdeflate; built here with g++) set the floor; the same
program linked to OpenCV core/imgproc as well shows what `rave` cost before OpenCV moved into the
drawing module, and `rave show` is a command that loads it.
"""
import argparse
import pathlib
import resource
import shutil
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_of(cmd):
    before = child_cpu()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return child_cpu() - before


def peak_rss_mb(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    return int(out.strip().splitlines()[-1]) / 1024


RAVE_LIBS = ["-lz3", "-ltbb", "-lpugixml", "-lz", "-ldeflate"]


def empty_linked(tmp, name, libs):
    src = tmp / "empty.c"
    src.write_text("int main(void) { return 0; }\n")
    exe = tmp / name
    subprocess.run(["g++", str(src), "-o", str(exe), "-Wl,--no-as-needed"] + libs, check=True)
    return exe


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rave", default=str(ROOT / "build/apps/rave"))
    ap.add_argument("--runs", type=int, default=100)
    a = ap.parse_args()
    xml = ROOT / "data/raven/center_single/RAVEN_0_train.xml"
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        cases = {
            "/bin/true": ["/bin/true"],
            "empty program linked like rave": [str(empty_linked(tmp, "empty-rave", RAVE_LIBS))],
            "empty program linked like rave + OpenCV": [
                str(empty_linked(tmp, "empty-opencv", RAVE_LIBS + ["-lopencv_core", "-lopencv_imgproc"]))],
            "rave --version": [a.rave, "--version"],
            "rave convert (one .xml to .asig)": [a.rave, "convert", str(xml), str(tmp / "p.asig")],
            "rave solve (one .xml)": [a.rave, "solve", str(xml)],
            "rave show (one .xml to .png: loads OpenCV)": [a.rave, "show", str(xml), "-o", str(tmp / "p.png")],
        }
        times = {name: [] for name in cases}
        for _ in range(a.runs):
            for name, cmd in cases.items():
                (tmp / "p.asig").unlink(missing_ok=True)
                times[name].append(cpu_of(cmd))
        with open("/proc/loadavg") as f:
            load = f.read().split()[:3]
        print(f"{a.runs} runs each, load average {' '.join(load)}")
        print("| command | CPU median (ms) | CPU mean (ms) | peak RSS (MB) |")
        print("|---|---:|---:|---:|")
        for name, cmd in cases.items():
            (tmp / "p.asig").unlink(missing_ok=True)
            ms = [1000 * x for x in times[name]]
            print(f"| {name} | {statistics.median(ms):.1f} | {statistics.fmean(ms):.1f} | {peak_rss_mb(cmd):.1f} |")


if __name__ == "__main__":
    main()
