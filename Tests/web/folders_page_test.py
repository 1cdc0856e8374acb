#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The page's folder list over a root of many folders, in headless Chromium: it is
virtual (a bounded number of elements whatever the count), scrolls to its last folder,
and is walked by keys (End, Home, Enter). Started by WebPageTests, which made the root
(COUNT folders f00000, f00001, ..., one photo each, the first FIRST of them) and the
gateway. The grid of every photo too: listed in pages, its sections whole and in order.

    folders_page_test.py --url LOGIN_URL --count COUNT --first-folder FIRST --screenshots DIR
"""
import argparse
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_test import Failure, Page, run_script, step, wait

LONG_TASKS = """
window.__longest = 0; window.__long = 0;
new PerformanceObserver(l => { for (const e of l.getEntries()) { window.__long += 1;
    window.__longest = Math.max(window.__longest, e.duration); } }).observe({type: 'longtask', buffered: true});
"""


def run(args):
    page = Page(argparse.Namespace(browser="chromium", url=args.url, screenshots=args.screenshots, axe=args.axe))
    driver = page.driver
    driver.set_script_timeout(150)  # the scroll, a screen a frame, over every folder
    rows = args.count + 2  # every photo, the root, its folders
    last = f"f{args.count - 1:05d}"
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LONG_TASKS})
        step("sign in; the folder list of every folder")
        driver.get(args.url)
        page.ready()
        wait(f"{rows} rows in the folder list", lambda: page.js(
            "const r = document.querySelector('.tree-row'); return r && Number(r.getAttribute('aria-setsize'))") == rows, timeout=120)
        elements = page.js("return [document.getElementsByTagName('*').length, document.querySelectorAll('.tree-item').length]")
        step(f"{rows} rows: {elements[1]} of them in the DOM, {elements[0]} elements in all")
        if elements[1] > 100 or elements[0] > 2000:
            raise Failure(f"the folder list is not virtual: {elements[1]} folder buttons, {elements[0]} elements")

        photos = args.count - 1 + args.first_folder
        step(f"the grid of all {photos} photos, listed in pages")
        wait(f"{photos} photos in the grid", lambda: page.js(
            "return Number(document.getElementById('grid').getAttribute('aria-rowcount'))") == photos, timeout=60)
        header = page.js("const h = document.querySelector('.grid-header'); return h && h.textContent")
        if header != f"f00000{args.first_folder} photos":
            raise Failure(f"the first section's header says {header!r}")
        # The first page (300 photos) ends inside the first folder: the second page's
        # part of it must follow on, with no second header.
        joined = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const grid = document.getElementById('grid');
            function look() {
              const a = grid.querySelector('[data-index="299"]'), b = grid.querySelector('[data-index="300"]');
              if (!(a && b)) { grid.scrollTop += grid.clientHeight / 3; requestAnimationFrame(look); return; }
              const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
              const headers = [...grid.querySelectorAll('.grid-header .section-name')].map((h) => h.textContent);
              done({sameRow: ra.top === rb.top && rb.left > ra.left, nextRow: rb.top > ra.top && rb.top - ra.top < ra.height + 20,
                    headers, position: b.querySelector('.cell-position').textContent});
            }
            look();""")
        step(f"photos 300 and 301: {joined}")
        if not (joined["sameRow"] or joined["nextRow"]) or "f00000" in joined["headers"] or joined["position"] != "301":
            raise Failure(f"the first folder's section is cut where its pages meet: {joined}")
        last_photo = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const grid = document.getElementById('grid');
            grid.scrollTop = grid.scrollHeight;
            requestAnimationFrame(() => requestAnimationFrame(() => {
              const cell = grid.querySelector(`[data-index="${arguments[0] - 1}"]`);
              const headers = [...grid.querySelectorAll('.grid-header .section-name')].map((h) => h.textContent);
              done(cell && [cell.getAttribute('aria-label'), headers[headers.length - 1]]);
            }));""", photos)
        step(f"the grid's last photo: {last_photo}")
        if last_photo != [f"{photos}. IMG.JPG", last]:
            raise Failure(f"the grid's last photo is {last_photo}, not {photos}. IMG.JPG in {last}")
        page.screenshot("folders-grid-bottom")

        step("scroll the list from the first folder to the last, a screen a frame")
        page.js("window.__longest = 0; window.__long = 0;")
        scrolled = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const list = document.querySelector('.tree-holder');
            let most = 0, frames = 0;
            function step() {
              most = Math.max(most, document.getElementsByTagName('*').length);
              frames += 1;
              if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) { requestAnimationFrame(() => done({most, frames})); return; }
              list.scrollTop += list.clientHeight;
              requestAnimationFrame(step);
            }
            requestAnimationFrame(step);""")
        longest = page.js("return [window.__long, window.__longest]")
        step(f"{scrolled['frames']} frames, at most {scrolled['most']} elements; long tasks: {longest[0]}, the longest {longest[1]:.0f} ms")
        if scrolled["most"] > 2000:
            raise Failure(f"{scrolled['most']} elements while scrolling the folder list")
        wait(f"{last} in the DOM at the bottom", lambda: page.js(
            "return [...document.querySelectorAll('.tree-item')].some(b => b.getAttribute('aria-label') === arguments[0])",
            f"{last}, 1 photos"))
        page.screenshot("folders-bottom")

        step("keys: Home, End and Enter in the list")
        page.js("document.querySelector('.tree-holder').scrollTop = 0;")
        wait("the first row", lambda: page.js("return Boolean(document.querySelector('.tree-item[data-row=\"0\"]'))"))
        page.js("document.querySelector('.tree-item[data-row=\"0\"]').focus()")
        page.key(Keys.END)
        focused = wait("the last folder focused", lambda: page.js(
            "return document.activeElement.getAttribute('aria-label')") == f"{last}, 1 photos")
        page.key(Keys.ARROW_UP)
        wait("the folder before it focused", lambda: page.js(
            "return document.activeElement.getAttribute('aria-label')").startswith(f"f{args.count - 2:05d},"))
        page.key(Keys.ARROW_DOWN, Keys.ENTER)
        wait(f"the view of {last}", lambda: page.js("return document.getElementById('view-title').textContent") == last
             and len(page.cells()) == 1)
        wait(f"{last} marked as the current folder", lambda: page.js(
            "const b = document.querySelector('.tree-item[aria-current=page]'); return b && b.getAttribute('aria-label')") == f"{last}, 1 photos")
        page.key(Keys.HOME)
        wait("All photos focused", lambda: page.js("return document.activeElement.getAttribute('aria-label')").startswith("All photos,"))
        if page.js("return document.getElementById('view-title').textContent") != last:
            raise Failure("moving in the list changed the view")
        page.screenshot("folders-keys")
        page.axe("folders")

        step("no message in the browser's console")
        page.expect_quiet_console()
        step("done")
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--first-folder", type=int, default=1, help="photos in the first folder")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--axe", default=None)
    args = parser.parse_args()
    if args.axe is None:
        import axe_selenium_python
        args.axe = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    run_script(run, args)


if __name__ == "__main__":
    main()
