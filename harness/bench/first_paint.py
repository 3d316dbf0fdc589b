#!/usr/bin/env python3
"""How fast a page opens: headless Chromium loads it N times and the page reports the browser's own
first contentful paint (performance 'paint' entry, written into <body data-first-paint-ms> by the
page's script at the load event; none if it had not painted by then). Also the wall time of the whole Chromium process, as an upper bound. Not a test:
a measurement (issue 15's target: first paint of the H100 page <= 2 s).

usage: first_paint.py PAGE.html [N]"""
import os, re, shutil, statistics, subprocess, sys, time

page, n = os.path.abspath(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 5
chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if not chrome:
    print("no chromium")
    sys.exit(77)
paints, walls = [], []
for _ in range(n):
    t0 = time.monotonic()
    dom = subprocess.run([chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                          "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=300).stdout
    walls.append(time.monotonic() - t0)
    m = re.search(r'data-first-paint-ms="(\d+)"', dom)
    paints.append(int(m.group(1)) if m else None)
print(f"{os.path.basename(page)}: {os.path.getsize(page) / 1e6:.2f} MB; first contentful paint (ms): {paints}; "
      f"chromium process wall (s): median {statistics.median(walls):.2f}, runs {[round(w, 2) for w in walls]}")
