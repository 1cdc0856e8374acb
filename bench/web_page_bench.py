#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The page (web/) in headless Chromium over a large root: what issue 52 measures.

    bench/web_page_bench.py [--count 100000] [--bin .build/release] [--warm | --no-thumbnails] [--keys 40]
                            [--rounds N] [--nginx] [--profile] [--loupe N] [--web DIR [--web DIR2]]
                            [--keep DIR] [--no-scroll | --scroll-part F]

Makes COUNT small real JPEGs (one picture by sample_photos.py, each file told apart by a
JPEG comment) in folders of 500, starts the real curatord and curatord-web on them, and
with --warm waits until the daemon's background work is done: every thumbnail made
with its stack measures, the content hashes read, the sidecars read. Then, in
headless Chromium (chromedriver, CDP):

- lcp_ms: Largest Contentful Paint from navigation to the first grid, and first_grid:
  what came before it (each candidate, the page's requests, the thumbnails' fetches
  and load events);
- scrolling from the first photo to the last, a screen per frame (--scroll-step): the longest task
  (PerformanceObserver 'longtask', over 50 ms is one), the most DOM elements at once,
  the JS heap after (CDP Runtime.getHeapUsage);
- key_to_badge_ms: Space on a photo to its badge on screen (through the gateway and the
  daemon), p50 and p95 over --keys presses;
- renderer_rss_mb: the resident memory of the browser's renderer processes;
- with --loupe N, loupe_ms: open_cold: Enter on the Nth photo (24 megapixels) at once
  after focusing it, to its picture painted (Element Timing): the daemon makes its
  screen picture then; open: Escape, the first photo focused for 1 s (the page fetches
  the picture of the photo the focus rests on), then Enter; then each next one (→,
  2 s after the last: the next one prepared meanwhile, when it was painted unseen: the
  frame after →); stand_in: when the grid's thumbnail was painted in its place;
- with --nginx, the same `large` thumbnails as a plain page of <img loading=lazy> served
  by nginx-light, measured the same way (first paint, scroll, heap, memory), each round
  back to back with the page; with --profile, the functions with the most CPU time of
  their own while scrolling and while pressing keys (CDP Profiler).

Prints one JSON object. Everything it made is removed at the end, unless --keep.
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


def request(sock_path, body):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        s.sendall((json.dumps(body) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data)


def make_root(root, count, scratch, large=0):
    """COUNT photos; the first LARGE of them 24-megapixel (6000 x 4000) for the loupe."""
    def sample(name, width, height):
        path = os.path.join(scratch, name)
        subprocess.run([sys.executable, os.path.join(HERE, "sample_photos.py"), "jpeg", path, "--width", str(width),
                        "--height", str(height), "--texture-cache", scratch], check=True, capture_output=True)
        return open(path, "rb").read()
    small = sample("base.jpg", 640, 480)
    big = sample("big.jpg", 6000, 4000) if large else small
    for i in range(count):
        folder = os.path.join(root, f"{i // 500:04d}")
        if i % 500 == 0:
            os.makedirs(folder, exist_ok=True)
        data = big if i < large else small
        comment = f"photo {i}".encode()
        with open(os.path.join(folder, f"IMG_{i:06d}.JPG"), "wb") as f:
            f.write(data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:])


def wait_for(what, predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    raise SystemExit(f"timed out waiting for {what}")


def chrome(args):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,900",
                 "--enable-precise-memory-info"):
        options.add_argument(flag)
    if getattr(args, "trace", False):
        # chromedriver traces the renderer from the start; the scroll's events are read
        # from its performance log (long_task_trace).
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {
            "enableNetwork": False, "enablePage": False,
            "traceCategories": "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.gc,blink.user_timing"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))
    # A screen a frame over 100 000 photos, each new row's thumbnails loaded, takes
    # minutes: the script may, and so may the wait for its answer (120 s by default).
    driver.set_script_timeout(1800)
    driver.command_executor._client_config.timeout = 1900
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVERS})
    return driver


OBSERVERS = """
    window.__lcp = 0; window.__longest = 0; window.__long = 0;
    window.__lcpSeen = [];
    new PerformanceObserver(l => { for (const e of l.getEntries()) { window.__lcp = e.startTime;
        const el = e.element; window.__lcpSeen.push([Math.round(e.startTime), e.size,
          el ? el.tagName + (el.className ? '.' + el.className : '') : '?', Math.round(e.loadTime),
          e.url ? e.url.split('/photo/').pop() : '']); } })
        .observe({type: 'largest-contentful-paint', buffered: true});
    new PerformanceObserver(l => { for (const e of l.getEntries()) { window.__long += 1;
        window.__longest = Math.max(window.__longest, e.duration); } }).observe({type: 'longtask', buffered: true});
    // The longest animation frames (where the browser supports them): how much of each
    // was script, and when style and layout, and the paint, began.
    window.__loafs = [];
    try {
      new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.duration > 50) {
          window.__loafs.push([Math.round(e.duration), Math.round(e.renderStart - e.startTime),
            Math.round(e.styleAndLayoutStart - e.startTime), Math.round(e.blockingDuration),
            e.scripts.map((x) => [x.invoker, Math.round(x.duration)]).slice(0, 3)]);
          window.__loafs.sort((a, b) => b[0] - a[0]); window.__loafs.length = Math.min(window.__loafs.length, 8); } })
        .observe({type: 'long-animation-frame', buffered: true});
    } catch (e) {}
    // When each image with \`elementtiming\` was first painted, by address.
    window.__painted = {};
    new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.url) window.__painted[e.url] = e.renderTime || e.loadTime; })
        .observe({type: 'element', buffered: true});
    // When the first images' load events came (the page's, not the network's time).
    window.__imgLoads = [];
    new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)
        if (n.querySelectorAll && window.__imgLoads.length < 200) for (const i of n.querySelectorAll('img'))
          i.addEventListener('load', () => window.__imgLoads.push(Math.round(performance.now())), {once: true}); })
      .observe(document, {subtree: true, childList: true});
    // What the page heard and asked while measured: events by kind, requests by address.
    window.__events = {}; window.__requests = {};
    if (window.EventSource) {
      const Source = window.EventSource;
      window.EventSource = class extends Source {
        constructor(...a) { super(...a); this.addEventListener('message', (m) => {
          let kind = '?'; try { kind = JSON.parse(m.data).event; } catch (e) {}
          window.__events[kind] = (window.__events[kind] || 0) + 1; }); }
      };
    }
    const fetchFirst = window.fetch.bind(window);
    window.fetch = (url, ...rest) => { const key = String(url).split('?')[0];
      const seen = window.__requests[key] = window.__requests[key] || {n: 0, ms: 0, max: 0};
      const t0 = performance.now();
      const done = () => { const ms = performance.now() - t0; seen.n += 1; seen.ms = Math.round(seen.ms + ms);
        seen.max = Math.max(seen.max, Math.round(ms)); };
      return fetchFirst(url, ...rest).then((r) => { done(); return r; }, (e) => { done(); throw e; }); };"""

# From the top to the bottom of a scroller, a screen a frame: the most elements at once.
SCROLL = """
    const done = arguments[arguments.length - 1];
    const scroller = arguments[0] ? document.querySelector(arguments[0]) : document.scrollingElement;
    const part = arguments[1];
    const step = arguments[2];
    let most = 0, frames = 0;
    const t0 = performance.now();
    function next() {
      most = Math.max(most, document.getElementsByTagName('*').length);
      frames += 1;
      if (scroller.scrollTop + scroller.clientHeight >= Math.min(scroller.scrollHeight - 1, part * scroller.scrollHeight)) {
        done({most, frames, ms: performance.now() - t0});
        return;
      }
      scroller.scrollTop += Math.max(1, Math.round(scroller.clientHeight * step));
      requestAnimationFrame(next);
    }
    requestAnimationFrame(next);"""


def renderer_rss_mb(driver):
    """The resident memory of the browser's renderer processes (every tab's), from /proc."""
    pids = {driver.service.process.pid}
    total = 0
    for _ in range(4):  # chromedriver > chromium > its zygotes > renderers
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in pids:
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent in pids:
                pids.add(int(entry))
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                renderer = b"--type=renderer" in f.read()
            if renderer:
                with open(f"/proc/{pid}/status") as f:
                    total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return round(total / 1024, 1)


class Profile:
    """A CPU profile (CDP Profiler) of one phase: the functions with the most time of their own."""

    def __init__(self, driver, enabled):
        self.driver = driver
        self.enabled = enabled
        if enabled:
            driver.execute_cdp_cmd("Profiler.enable", {})
            driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 500})
            driver.execute_cdp_cmd("Profiler.start", {})

    def stop(self, top=12):
        if not self.enabled:
            return None
        profile = self.driver.execute_cdp_cmd("Profiler.stop", {})["profile"]
        nodes = {node["id"]: node for node in profile["nodes"]}
        deltas = profile.get("timeDeltas", [])
        own = {}
        for sample, delta in zip(profile.get("samples", []), deltas):
            frame = nodes[sample]["callFrame"]
            key = f"{frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}"
            own[key] = own.get(key, 0) + delta
        total = sum(own.values()) or 1
        return [(name, round(us / 1000, 1), round(100 * us / total, 1))
                for name, us in sorted(own.items(), key=lambda item: -item[1])[:top]]


def long_task_trace(driver):
    """Each task over 50 ms on a renderer's main thread since the browser started (the
    load and the scroll), with what ran inside it: the time of each kind of event, the
    largest first."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Tracing.dataCollected":
            events.append(message["params"])
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    tasks = [e for e in events if e.get("ph") == "X" and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")
             and (e["pid"], e["tid"]) in mains and e.get("dur", 0) > 50_000]
    picked = []
    for task in sorted(tasks, key=lambda e: -e["dur"]):
        # A RunTask and the ThreadControllerImpl's around it are one task.
        if not any((t["pid"], t["tid"]) == (task["pid"], task["tid"]) and t["ts"] <= task["ts"] < t["ts"] + t["dur"] for t in picked):
            picked.append(task)
    out = []
    for task in picked[:12]:
        inside = {}
        for e in events:
            if (e.get("ph") == "X" and (e["pid"], e["tid"]) == (task["pid"], task["tid"]) and e is not task
                    and task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e.get("name") not in ("RunTask", "ThreadControllerImpl::RunTask")):
                inside[e["name"]] = inside.get(e["name"], 0) + e.get("dur", 0)
        top = sorted(inside.items(), key=lambda item: -item[1])[:10]
        out.append([round(task["dur"] / 1000, 1), [[name, round(us / 1000, 1)] for name, us in top]])
    return out


def measure_page(page, args):
    base, (name, value) = page
    driver = chrome(args)
    try:
        driver.get(base + "/login")  # the origin, for its cookie
        driver.add_cookie({"name": name, "value": value, "path": "/"})
        load_profile = Profile(driver, args.profile)
        driver.get(base + "/")
        wait_for("the grid", lambda: driver.execute_script(
            "return document.body.dataset.ready === 'true' && document.querySelectorAll('[role=gridcell]').length > 0"), 120)
        wait_for("the whole listing", lambda: driver.execute_script(
            "return Number(document.getElementById('grid').getAttribute('aria-rowcount')) === %d" % args.count), 120)
        time.sleep(1)
        lcp = driver.execute_script("return window.__lcp")
        # What came before the first grid: each candidate, the longest tasks, the page's
        # own requests (the API, the scripts; not the thumbnails) with their times.
        first = driver.execute_script(FIRST_GRID)
        first["profile"] = load_profile.stop()
        driver.execute_script("window.__longest = 0; window.__long = 0; window.__events = {}; window.__requests = {}; window.__loafs = [];")
        profile = Profile(driver, args.profile)
        scroll = driver.execute_async_script(SCROLL, "#grid", args.scroll_part, args.scroll_step) if not args.no_scroll else {"frames": 0, "ms": 0, "most": 0}
        time.sleep(0.5)
        scroll_profile = profile.stop()
        traced = long_task_trace(driver) if args.trace else None
        heard = driver.execute_script("return [window.__events, window.__requests]")
        longest, long_count = driver.execute_script("return [window.__longest, window.__long]")
        frames = driver.execute_script("return window.__loafs")
        heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})
        rss = renderer_rss_mb(driver)
        # Space on a photo to its badge: toggled twice per sample (select, deselect).
        driver.execute_script("document.getElementById('grid').scrollTop = 0;")
        time.sleep(1)
        driver.execute_script("window.__longest = 0; window.__long = 0; window.__events = {}; window.__requests = {};")
        profile = Profile(driver, args.profile)
        latencies = driver.execute_async_script(KEYS, args.keys)
        key_profile = profile.stop()
        key_long = driver.execute_script("return [window.__longest, window.__long]")
        heard_keys = driver.execute_script("return [window.__events, window.__requests]")
        loupe = driver.execute_async_script(LOUPE, args.loupe) if args.loupe else None
        previews = driver.execute_script(PREVIEWS) if args.loupe else None
    finally:
        driver.quit()
    latencies.sort()
    result = {
        "lcp_ms": round(lcp, 1), "first_grid": first,
        "scroll": {"frames": scroll["frames"], "ms": round(scroll["ms"]), "most_dom_elements": scroll["most"],
                   "long_tasks": long_count, "longest_task_ms": round(longest, 1),
                   "events": heard[0], "requests": heard[1],
                   # The longest frames: [ms, render start, style and layout start, blocking, scripts].
                   "long_frames": frames},
        "js_heap_mb": round(heap["usedSize"] / 1e6, 1), "renderer_rss_mb": rss,
        "key_events": heard_keys[0], "key_requests": heard_keys[1],
        "key_to_badge_ms": {"p50": round(statistics.median(latencies), 1),
                            "p95": round(latencies[max(0, int(len(latencies) * 0.95) - 1)], 1),
                            "max": round(latencies[-1], 1), "long_tasks": key_long[1], "longest_task_ms": round(key_long[0], 1)},
    }
    if loupe:
        result["loupe_ms"] = {"open_cold": round(loupe[0][0], 1), "open": round(loupe[1][0], 1),
                              "next": [round(t, 1) for t, _ in loupe[2:]],
                              "stand_in": [None if s is None else round(s, 1) for _, s in loupe], "previews": previews}
    if args.profile:
        result["profile_scroll"] = scroll_profile
        result["profile_keys"] = key_profile
    if traced is not None:
        result["long_tasks_traced"] = traced
    return result


def measure_plain(url, args):
    """The same thumbnails as a plain page of <img loading=lazy> under nginx."""
    driver = chrome(args)
    try:
        driver.get(url)
        wait_for("the plain page", lambda: driver.execute_script("return document.readyState === 'complete'"), 300)
        time.sleep(3)
        lcp = driver.execute_script("return window.__lcp")
        driver.execute_script("window.__longest = 0; window.__long = 0;")
        scroll = (driver.execute_async_script(SCROLL, None, args.scroll_part, args.scroll_step) if not args.no_scroll
                  else {"frames": 0, "ms": 0, "most": 0})
        time.sleep(0.5)
        longest, long_count = driver.execute_script("return [window.__longest, window.__long]")
        heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})
        rss = renderer_rss_mb(driver)
    finally:
        driver.quit()
    return {"lcp_ms": round(lcp, 1),
            "scroll": {"frames": scroll["frames"], "ms": round(scroll["ms"]), "most_dom_elements": scroll["most"],
                       "long_tasks": long_count, "longest_task_ms": round(longest, 1)},
            "js_heap_mb": round(heap["usedSize"] / 1e6, 1), "renderer_rss_mb": rss}


FIRST_GRID = """
    const own = performance.getEntriesByType('resource').filter((e) => !e.name.includes('/photo/'));
    return {candidates: window.__lcpSeen, long_tasks: window.__long, longest_task_ms: Math.round(window.__longest),
            requests: own.map((e) => [e.name.replace(location.origin, '').split('?')[0], Math.round(e.startTime),
                                      Math.round(e.responseEnd), e.encodedBodySize]),
            image_loads: window.__imgLoads.slice().sort((a, b) => a - b).filter((t, i, all) => i === 0 || i === all.length >> 1 || i === all.length - 1),
            lcp_resource: (() => { const seen = window.__lcpSeen[window.__lcpSeen.length - 1];
              const e = seen && seen[4] && performance.getEntriesByType('resource').find((r) => r.name.endsWith(seen[4]));
              return e ? [Math.round(e.startTime), Math.round(e.responseStart), Math.round(e.responseEnd)] : null; })(),
            photos: (() => { const p = performance.getEntriesByType('resource').filter((e) => e.name.includes('/photo/'));
              const at = (f) => p.length ? Math.round(f(p)) : null;
              return {by_lcp: p.filter((e) => e.responseEnd <= window.__lcp).length,
                      first_start: at((q) => Math.min(...q.map((e) => e.startTime))),
                      first_end: at((q) => Math.min(...q.map((e) => e.responseEnd))),
                      median_ms: at((q) => q.map((e) => e.responseEnd - e.startTime).sort((a, b) => a - b)[q.length >> 1])}; })()};"""


KEYS = """
    const done = arguments[arguments.length - 1];
    const presses = arguments[0];
    const cell = document.querySelector('[role=gridcell][data-index="0"]');
    cell.focus();
    const out = [];
    let i = 0;
    function press() {
      if (i >= presses) { done(out); return; }
      const want = i % 2 === 0;
      const t0 = performance.now();
      const observer = new MutationObserver(() => {
        const c = document.querySelector('[role=gridcell][data-index="0"]');
        if (c && (c.getAttribute('aria-selected') === 'true') === want) {
          observer.disconnect();
          requestAnimationFrame(() => { out.push(performance.now() - t0); i += 1; setTimeout(press, 20); });
        }
      });
      observer.observe(document.getElementById('grid'), {subtree: true, attributes: true});
      document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', bubbles: true}));
    }
    press();"""


LOUPE = """
    const done = arguments[arguments.length - 1];
    const photos = arguments[0];
    const out = [];
    // From the key to the new photo on screen: its first paint (Element Timing, the
    // loupe's images carry \`elementtiming\`), or, for a photo the loupe had drawn
    // unseen under the one shown (decoded at its size), the first frame after the key.
    function timed(key, then) {
      const t0 = performance.now();
      document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
      const url = document.querySelector('#loupe .loupe-image').src;
      const standin = document.querySelector('#loupe .loupe-standin');
      const standinURL = standin.hidden ? null : standin.src;
      // With the time the grid's thumbnail stood in for the photo, when it did.
      const record = (ms) => {
        const at = standinURL && window.__painted[standinURL];
        out.push([ms, at && at >= t0 ? at - t0 : null]);
        then();
      };
      if (window.__painted[url] !== undefined) {
        requestAnimationFrame(() => requestAnimationFrame(() => record(performance.now() - t0)));
        return;
      }
      (function wait() {
        const at = window.__painted[url];
        if (at !== undefined && at >= t0) { record(at - t0); return; }
        setTimeout(wait, 5);
      })();
    }
    function next(left) {
      if (left === 0) { done(out); return; }
      // The neighbours are fetched while this one is looked at.
      setTimeout(() => timed('ArrowRight', () => next(left - 1)), 2000);
    }
    const cell = (i) => document.querySelector(`[role=gridcell][data-index="${i}"]`);
    cell(photos - 1).focus();
    timed('Enter', () => {
      document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
      cell(0).focus();
      setTimeout(() => timed('Enter', () => next(photos - 2)), 1000);
    });"""


# Each preview's fetch: when asked, its first byte and its end, from the page's start.
PREVIEWS = """
    return performance.getEntriesByType('resource').filter((e) => e.name.includes('/preview') || e.name.includes('/screen'))
        .map((e) => [e.name.split('/photo/')[1].split('/')[0], Math.round(e.startTime), Math.round(e.responseStart),
                     Math.round(e.responseEnd), e.encodedBodySize]);"""


def start_nginx(thumbnails, scratch, processes):
    """nginx-light serving the daemon's `large` thumbnails (the size the page shows at
    176 px cells on a 1x screen) and a plain page of them, one <img loading=lazy> each."""
    site = os.path.join(scratch, "plain")
    shutil.rmtree(site, ignore_errors=True)  # from an earlier run with --keep
    os.makedirs(site)
    os.symlink(os.path.join(thumbnails, "large"), os.path.join(site, "large"))
    names = sorted(os.listdir(os.path.join(thumbnails, "large")))
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write("<!doctype html><html><head><meta charset=utf-8><title>plain</title><style>"
                "body{margin:0;background:#161616}img{width:176px;height:176px;object-fit:contain;margin:3px;"
                "background:#262626}</style></head><body>")
        for name in names:
            f.write(f'<img loading=lazy decoding=async width=176 height=176 alt="" src="/large/{name}">')
        f.write("</body></html>")
    port = free_port()
    conf = os.path.join(scratch, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""user root;
worker_processes 1;
daemon off;
pid {scratch}/nginx.pid;
error_log {scratch}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  sendfile on;
  client_body_temp_path {scratch}/nginx-body;
  proxy_temp_path {scratch}/nginx-proxy;
  fastcgi_temp_path {scratch}/nginx-fastcgi;
  uwsgi_temp_path {scratch}/nginx-uwsgi;
  scgi_temp_path {scratch}/nginx-scgi;
  types {{ image/png png; text/html html; }}
  server {{ listen 127.0.0.1:{port}; root {site}; disable_symlinks off; }}
}}
""")
    processes.append(subprocess.Popen(["nginx", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    wait_for("nginx", lambda: connectable(port), 10)
    return f"http://127.0.0.1:{port}/"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connectable(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100000)
    parser.add_argument("--bin", default=os.path.join(PACKAGE, ".build", "release"))
    parser.add_argument("--warm", action="store_true", help="wait for every thumbnail first")
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--keep", metavar="DIR", help="make the root, index and thumbnails in DIR and keep them; "
                        "given again, they are used as they are (a warm restart): --count and --loupe then change nothing")
    parser.add_argument("--loupe", type=int, default=0,
                        help="the first N photos 24-megapixel JPEGs: the first opened in the loupe, then the next ones")
    parser.add_argument("--web", action="append", help="the page's folder (default web/); given twice, both, interleaved")
    parser.add_argument("--rounds", type=int, default=1, help="runs of the page (and of the plain page), interleaved")
    parser.add_argument("--nginx", action="store_true", help="also the thumbnails as a plain <img loading=lazy> page under nginx")
    parser.add_argument("--no-scroll", action="store_true", help="skip the scroll (minutes at 100 000 photos)")
    parser.add_argument("--scroll-part", type=float, default=1.0, help="scroll this part of the way down (to look at it)")
    parser.add_argument("--scroll-step", type=float, default=1.0,
                        help="the part of a screen scrolled each frame (1: a fling; 0.1: six screens a second, where "
                             "the page loads the thumbnails passing by)")
    parser.add_argument("--profile", action="store_true", help="CPU profiles of the scroll and the keys: the top functions")
    parser.add_argument("--trace", action="store_true",
                        help="the tasks over 50 ms of the load and the scroll, and what ran in each (Chromium's trace)")
    parser.add_argument("--no-thumbnails", action="store_true",
                        help="a daemon that makes none (the grid's placeholders): the grid alone, without the decoder's load")
    args = parser.parse_args()

    scratch = args.keep or tempfile.mkdtemp(prefix="curatord-webbench-")
    processes = []
    try:
        root = os.path.join(scratch, "pics")
        started = time.monotonic()
        if not os.path.isdir(root):
            os.makedirs(root)
            make_root(root, args.count, scratch, args.loupe)
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "data"), XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                   XDG_RUNTIME_DIR=scratch, HOME=scratch, XDG_STATE_HOME=os.path.join(scratch, "xs"),
                   XDG_CONFIG_HOME=os.path.join(scratch, "xc"))
        sock = os.path.join(scratch, "d.sock")
        log = open(os.path.join(scratch, "daemon.log"), "w")
        config = os.path.join(scratch, "curatord.json5")
        with open(config, "w") as f:
            f.write(json.dumps({"thumbnails": not args.no_thumbnails, "roots": [{"path": root}]}))
        processes.append(subprocess.Popen([os.path.join(args.bin, "curatord"), "--config", config, "--socket", sock,
                                           "--state-dir", os.path.join(scratch, "state")], env=env, stdout=log, stderr=log))
        def status():
            try:
                return request(sock, {"cmd": "status"})["result"]
            except (OSError, ValueError, KeyError):
                return None  # not listening yet, or busy: asked again
        wait_for("the daemon's scan", lambda: (status() or {"scanning": True})["scanning"] is False, 600)
        if args.warm:
            # The thumbnails (and the measures of the stacks, made with them), the
            # content hashes and the sidecars: nothing left in the background.
            def idle():
                now = status() or {}
                return (now.get("thumbnails", {}).get("backlog", 1) == 0 and now.get("hash_pending", 1) == 0
                        and now.get("xmp_pending", 1) == 0)
            wait_for("the daemon's background work", idle, 3600)
        prepared = time.monotonic() - started
        load = os.getloadavg()
        pages = {}
        for n, web in enumerate(args.web or [os.path.join(PACKAGE, "web")]):
            out = open(os.path.join(scratch, f"web-{n}.out"), "w+")
            processes.append(subprocess.Popen([os.path.join(args.bin, "curatord-web"), "--socket", sock, "--web", web],
                                              env=env, stdout=out, stderr=log))
            url = wait_for("the gateway's address", lambda: open(out.name).readline().strip(), 30)
            # The address can be used once: its cookie is given to each browser started.
            base = url.split("/login")[0]
            conn = http.client.HTTPConnection(base.split("//", 1)[1])
            conn.request("GET", "/login?token=" + url.split("token=", 1)[1])
            cookie = conn.getresponse().getheader("Set-Cookie").split(";", 1)[0].split("=", 1)
            conn.close()
            pages[web] = (base, cookie)

        thumbnails = os.path.join(env["XDG_CACHE_HOME"], "thumbnails")
        nginx_url = start_nginx(thumbnails, scratch, processes) if args.nginx else None
        results = {what: [] for what in list(pages) + (["nginx plain page"] if nginx_url else [])}
        for r in range(args.rounds):
            # Interleaved, each page and its peers back to back: on a shared machine only
            # their ratios within a round mean anything.
            order = list(results) if r % 2 == 0 else list(reversed(results))
            for what in order:
                # The loupe's first open is cold each time: no screen picture made yet.
                shutil.rmtree(os.path.join(thumbnails, "curatord-screen"), ignore_errors=True)
                results[what].append(measure_plain(nginx_url, args) if what == "nginx plain page" else measure_page(pages[what], args))
        print(json.dumps({
            "photos": args.count, "warm_thumbnails": args.warm, "thumbnails": not args.no_thumbnails,
            "prepare_s": round(prepared, 1), "load_before": load, "load_after": os.getloadavg(), "results": results,
        }, indent=1))
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
