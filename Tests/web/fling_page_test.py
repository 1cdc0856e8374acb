#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The grid in a fling, in headless Chromium: scrolled a screen a frame, it fetches
none of the thumbnails of the rows passing by (they would be gone a frame later),
and once it stops, the rows on screen get theirs. Started by WebPageTests, which made
the root (COUNT photos in one folder, every thumbnail made) and the gateway.

    fling_page_test.py --url LOGIN_URL --count COUNT --screenshots DIR
"""
import argparse

from page_test import THUMBNAILS_SHOWN, Failure, Page, run_script, step, wait

# A screen a frame for FRAMES frames: the thumbnails asked for meanwhile (resource
# entries begun after the first frame, whose rows the fling had not yet been seen
# to be one) and the cells that passed by.
FLING = """
    const [frames, done] = [arguments[0], arguments[arguments.length - 1]];
    const grid = document.getElementById('grid');
    const thumbnails = () => performance.getEntriesByType('resource')
        .filter((e) => /\\/photo\\/\\d+\\/(normal|large)/.test(e.name));
    const seen = new Set();
    let t1 = 0, n = 0;
    function frame() {
      for (const cell of grid.querySelectorAll('[role=gridcell]')) seen.add(cell.dataset.index);
      if (n === 1) t1 = performance.now();
      if (n === frames) {
        done({asked: thumbnails().filter((e) => e.startTime >= t1).length, passed: seen.size, top: grid.scrollTop});
        return;
      }
      n += 1;
      grid.scrollTop += grid.clientHeight;
      requestAnimationFrame(frame);
    }
    performance.setResourceTimingBufferSize(100000);
    requestAnimationFrame(frame);"""


def run(args):
    page = Page(argparse.Namespace(browser="chromium", url=args.url, screenshots=args.screenshots, axe=None))
    driver = page.driver
    try:
        step(f"sign in; the grid of {args.count} photos, the first screen's thumbnails shown")
        driver.get(args.url)
        page.ready()
        wait(f"{args.count} photos in the grid", lambda: page.js(
            "return Number(document.getElementById('grid').getAttribute('aria-rowcount'))") == args.count, timeout=60)
        wait("the first screen's thumbnails", lambda: page.js(THUMBNAILS_SHOWN))
        step("a fling: a screen a frame")
        flung = driver.execute_async_script(FLING, 25)
        step(f"the fling passed {flung['passed']} cells and asked for {flung['asked']} thumbnails")
        if flung["passed"] < 300:
            raise Failure(f"the fling passed only {flung['passed']} cells: nothing to tell")
        if flung["asked"] > 0:
            raise Failure(f"the fling asked for {flung['asked']} thumbnails of rows passing by")
        step("stopped: the rows on screen get their thumbnails")
        wait("the thumbnails where the fling stopped", lambda: page.js(THUMBNAILS_SHOWN), timeout=10)
        shown = page.js("return document.querySelectorAll('#grid [role=gridcell] img[src]').length")
        if shown == 0:
            raise Failure("no thumbnail where the fling stopped")
        page.screenshot("fling-stopped")
        page.expect_quiet_console()
        step("done")
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    run_script(run, args)


if __name__ == "__main__":
    main()
