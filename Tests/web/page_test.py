#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The page (web/) in a real browser, against the real gateway and daemon that the
Swift test (WebPageTests) started. Drives headless Chromium (chromedriver) or
WebKitGTK (WebKitWebDriver, under Xvfb) with python3-selenium, and checks with
axe-core (axe-selenium-python) that the page has no serious violation.

    page_test.py --browser chromium|webkit --url LOGIN_URL --root DIR --data-home DIR
                 --sample JPEG --screenshots DIR

The root holds a/IMG_0001..4.JPG, b/IMG_0005..6.JPG and keep/IMG_0007.JPG (protected).
Prints one line per step; exits 1 with the reason at the first failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.webkitgtk.options import Options as WebKitGTKOptions

SIZES = {"phone": (390, 844, 3), "tablet": (820, 1180, 2), "desktop": (1440, 900, 1)}

# Collects what the page's console says and what fails to load, for WebKit, whose
# driver has no log endpoint (Chromium's is read too).
CONSOLE_HOOK = """
if (!window.__consoleHook) {
  window.__consoleHook = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const original = console[level].bind(console);
    console[level] = (...args) => { window.__consoleHook.push(level + ': ' + args.map(String).join(' ')); original(...args); };
  }
  window.addEventListener('error', (e) => window.__consoleHook.push('error: ' + (e.message || (e.target && (e.target.src || e.target.href)) || 'load failed')), true);
  window.addEventListener('unhandledrejection', (e) => window.__consoleHook.push('rejection: ' + e.reason));
}
"""


class Failure(Exception):
    pass


def step(text):
    print("step:", text, flush=True)


def wait(what, predicate, timeout=15, interval=0.1):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except (StaleElementReferenceException, WebDriverException) as error:
            last = error
        time.sleep(interval)
    raise Failure(f"timed out waiting for {what}" + (f" (last error: {last})" if last else ""))


class Page:
    def __init__(self, args):
        self.args = args
        self.console = []
        self.driver = self.start(args.browser)
        self.driver.set_script_timeout(30)

    def start(self, browser):
        if browser == "chromium":
            options = webdriver.ChromeOptions()
            options.binary_location = "/usr/bin/chromium"
            for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--disable-extensions", "--window-size=1440,900"):
                options.add_argument(flag)
            options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
            service = ChromeService(executable_path="/usr/bin/chromedriver")
            return webdriver.Chrome(options=options, service=service)
        options = WebKitGTKOptions()
        options.binary_location = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
        options.add_argument("--automation")
        driver = webdriver.WebKitGTK(executable_path="/usr/bin/WebKitWebDriver", options=options)
        driver.set_window_size(1440, 900)
        return driver

    @property
    def base(self):
        return self.args.url.split("/login")[0]

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def hook_console(self):
        self.js(CONSOLE_HOOK)

    def read_console(self):
        messages = []
        if self.args.browser == "chromium":
            messages += [f"{entry['level']}: {entry['message']}" for entry in self.driver.get_log("browser")]
        messages += self.js("const m = window.__consoleHook || []; window.__consoleHook = []; return m;") or []
        self.console += messages
        return messages

    def expect_quiet_console(self):
        """Fails when the browser's console said anything in the whole run."""
        self.read_console()
        if self.console:
            raise Failure("the console said: " + json.dumps(self.console))

    def ready(self):
        wait("the page to be ready", lambda: self.js("return document.body.dataset.ready === 'true'"))
        self.hook_console()

    def cells(self):
        return self.js("""
            return [...document.querySelectorAll('#grid [role=gridcell]')].map(c => ({
                index: Number(c.dataset.index), label: c.getAttribute('aria-label'),
                badge: c.querySelector('.badge').hidden ? '' : c.querySelector('.badge').textContent,
                selected: c.getAttribute('aria-selected')}));""")

    def badges(self):
        """File name -> badge text, of the cells on screen."""
        result = {}
        for cell in self.cells():
            name = cell["label"].split(". ", 1)[1].split(",")[0]
            result[name] = cell["badge"]
        return result

    def cell(self, name):
        for element in self.driver.find_elements(By.CSS_SELECTOR, "#grid [role=gridcell]"):
            if element.get_attribute("aria-label").split(". ", 1)[1].split(",")[0] == name:
                return element
        raise Failure(f"no cell for {name}: {self.badges()}")

    def key(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def set_size(self, name):
        width, height, ratio = SIZES[name]
        if self.args.browser == "chromium":
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": ratio, "mobile": name == "phone"})
        else:
            self.driver.set_window_size(width, height)
        time.sleep(0.4)

    def screenshot(self, name):
        path = os.path.join(self.args.screenshots, f"{self.args.browser}-{name}.png")
        self.driver.save_screenshot(path)
        step(f"screenshot {path}")

    def axe(self, where):
        # WebKit holds the scripts a driver runs to the page's CSP, which forbids eval,
        # and axe-core compiles its messages with Function(): it runs in Chromium only.
        if self.args.browser != "chromium":
            return
        with open(self.args.axe, encoding="utf8") as script:
            self.js(script.read())
        results = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations), e => done(String(e)));")
        if isinstance(results, str):
            raise Failure(f"axe failed at {where}: {results}")
        serious = [v for v in results if v.get("impact") in ("serious", "critical")]
        for violation in results:
            nodes = "; ".join(node["target"][0] if isinstance(node["target"][0], str) else str(node["target"])
                              for node in violation["nodes"][:3])
            print(f"axe {where}: {violation['impact']} {violation['id']}: {nodes}", flush=True)
        if serious:
            raise Failure(f"axe at {where}: {len(serious)} serious violations: {[v['id'] for v in serious]}")


# The loupe's image shown is this photo's screen picture (every size tested is at most
# 2560 device pixels long), loaded, and named for it.
PREVIEW_SHOWN = """
    const image = document.querySelector('#loupe .loupe-image');
    return image.alt === arguments[0] && image.src.includes('/screen') && image.complete && image.naturalWidth > 0
        && document.querySelector('#loupe .loupe-title').textContent.endsWith(arguments[0]);"""


# Every cell's thumbnail loaded and not hidden.
THUMBNAILS_SHOWN = """
    const cells = [...document.querySelectorAll('[role=gridcell]')];
    return cells.length > 0 && cells.every((cell) => { const image = cell.querySelector('img');
      return image.complete && image.naturalWidth > 0 && getComputedStyle(image).display !== 'none'; });"""


# The loupe's image decoded and a frame drawn after: what a screenshot then shows.
PREVIEW_DRAWN = """
    const done = arguments[arguments.length - 1];
    document.querySelector('#loupe .loupe-image').decode()
        .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))), () => done(false));"""


def trash_list(data_home):
    env = dict(os.environ, XDG_DATA_HOME=data_home)
    out = subprocess.run(["trash-list"], env=env, capture_output=True, text=True, timeout=30)
    return out.stdout


def marks_by_ctl(args):
    """path -> (rating, flag, label) as `curatorctl ls --json` lists them."""
    out = subprocess.run([args.curatorctl, "ls", "--json"], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise Failure(f"curatorctl ls: {out.stderr}")
    listing = json.loads(out.stdout)["result"]  # --json: the daemon's answer as it came
    photos = listing["photos"]
    return {photo["path"]: (photo.get("rating"), photo.get("flag"), photo.get("label")) for photo in photos}


def exiftool_marks(folder):
    """(file, rating) for every sidecar exiftool finds in the folder."""
    out = subprocess.run(["exiftool", "-j", "-XMP-xmp:Rating", "-ext", "xmp", folder], capture_output=True, text=True, timeout=60)
    return {(entry["SourceFile"].rsplit("/", 1)[1].removesuffix(".xmp").removesuffix(".XMP"), entry.get("Rating"))
            for entry in json.loads(out.stdout or "[]")}


def run(args):
    page = Page(args)
    driver = page.driver
    try:
        step("sign in with the one-time address")
        driver.get(args.url)
        wait("the address bar to lose the secret", lambda: "token=" not in driver.current_url)
        page.ready()
        wait("7 photos in the grid", lambda: len(page.cells()) == 7)
        # Every thumbnail shown, and still after the grid is laid out again (a cell's
        # "no thumbnail" state was toggled, not set, each time it was drawn).
        wait("every thumbnail shown", lambda: page.js(THUMBNAILS_SHOWN), timeout=30)
        page.set_size("tablet")
        wait("every thumbnail shown at another width", lambda: page.js(THUMBNAILS_SHOWN))
        page.set_size("desktop")
        wait("every thumbnail shown again", lambda: page.js(THUMBNAILS_SHOWN))
        names = sorted(page.badges())
        if names != [f"IMG_000{i}.JPG" for i in range(1, 8)]:
            raise Failure(f"the grid shows {names}")

        step("browse: roots and folders with counts, the protected one marked")
        expected = ["All photos, 7 photos", "pics, 7 photos", "a, 4 photos", "b, 2 photos", "keep, 1 photos, protected"]
        wait("the folders with their counts", lambda: page.js(
            "return [...document.querySelectorAll('.tree-item')].map(b => b.getAttribute('aria-label'))") == expected)
        sections = page.js("return [...document.querySelectorAll('[role=rowheader]')].map(h => h.textContent)")
        if sections != ["a4 photos", "b2 photos", "keep1 photo"]:
            raise Failure(f"the sections are {sections}")
        driver.find_element(By.XPATH, "//button[@aria-label='b, 2 photos']").click()
        wait("folder b alone", lambda: sorted(page.badges()) == ["IMG_0005.JPG", "IMG_0006.JPG"])
        driver.find_element(By.XPATH, "//button[starts-with(@aria-label, 'pics,')]").click()
        wait("the whole root again", lambda: len(page.cells()) == 7)

        step("select 3 photos with the keyboard: 1, 2, 3")
        page.cell("IMG_0001.JPG").click()  # view mode: opens the loupe
        wait("the loupe", lambda: page.js("return !document.getElementById('loupe').hidden"))
        wait("the preview to load", lambda: page.js(PREVIEW_SHOWN, "IMG_0001.JPG"))
        info = wait("the photo's information (photo.info: the camera)", lambda: (lambda text: text if "Pixels" in text else None)(
            page.js("return document.querySelector('.loupe-info').textContent")))
        step(f"loupe info: {info}")
        for shown in ("Shutter1/250 s", "Aperturef/2.8", "ISO400", "Focal length35 mm", "LensSample 35mm F2.8"):
            if shown not in info:
                raise Failure(f"the loupe's panel lacks {shown!r}: {info}")
        page.key("i")
        wait("the information panel", lambda: page.js("return document.getElementById('loupe').classList.contains('info-open')"))
        page.driver.execute_async_script(PREVIEW_DRAWN)
        page.screenshot("loupe-info")
        page.key("i")
        # The next photo was drawn unseen under this one: → swaps it in, then ← back.
        next_name = page.js("return document.querySelectorAll('[role=gridcell]')[1].getAttribute('aria-label').split('. ')[1]")
        wait("the next photo prepared", lambda: page.js(
            "const s = document.querySelector('.loupe-spare'); return s.complete && s.naturalWidth > 0"))
        page.key(Keys.ARROW_RIGHT)
        wait(f"{next_name} in the loupe", lambda: page.js(PREVIEW_SHOWN, next_name))
        if page.js("return document.querySelectorAll('#loupe img:not([aria-hidden])').length") != 1:
            raise Failure("the loupe shows more than one image to assistive technology")
        # IMG_0002 is 3000x2000: shown fitted from its 2560 px screen picture, then at
        # 100 % from the photo itself, fetched once zoomed past the picture's pixels.
        shown = page.js("const i = document.querySelector('#loupe .loupe-image'); return [i.naturalWidth, i.naturalHeight]")
        if next_name != "IMG_0002.JPG" or shown != [2560, 1707]:
            raise Failure(f"the loupe shows {next_name} from a {shown} picture, not IMG_0002's 2560x1707 screen picture")
        wait("the photo's size in the panel", lambda: "Pixels3000 × 2000" in page.js(
            "return document.querySelector('.loupe-info').textContent"))
        page.key("z")
        wait("100 % of the photo itself", lambda: page.js(
            "const i = document.querySelector('#loupe .loupe-image');"
            "return i.src.includes('/preview') && i.complete && i.naturalWidth === 3000"
            " && document.querySelector('.loupe-zoom').textContent === '100 %'"))
        page.key("z")
        page.key(Keys.ARROW_LEFT)
        wait("IMG_0001.JPG in the loupe again", lambda: page.js(PREVIEW_SHOWN, "IMG_0001.JPG"))
        page.key("z")
        wait("zoom to 100 %", lambda: "%" in page.js("return document.querySelector('.loupe-zoom').textContent"))
        page.key(Keys.ESCAPE)
        wait("back to the grid", lambda: page.js("return document.getElementById('loupe').hidden"))
        page.key(Keys.SPACE)
        page.key(Keys.ARROW_RIGHT, Keys.SPACE)
        wait("one badge", lambda: page.badges()["IMG_0002.JPG"] == "1" or page.badges()["IMG_0001.JPG"] == "1")
        page.key(Keys.ARROW_RIGHT, Keys.SPACE)
        # The focus was on IMG_0001 (the loupe gives it back): 0001, 0002, 0003 are selected.
        wait("badges 1, 2, 3", lambda: [page.badges()[f"IMG_000{i}.JPG"] for i in (1, 2, 3, 4)] == ["1", "2", "3", ""])

        step("a second tab sees the selection")
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        second = driver.current_window_handle
        driver.get(page.base + "/")
        page.ready()
        wait("badges 1, 2, 3 in the second tab",
             lambda: [page.badges()[f"IMG_000{i}.JPG"] for i in (1, 2, 3)] == ["1", "2", "3"])
        page.read_console()

        step("deselect the first: 1, 2")
        driver.switch_to.window(first)
        page.cell("IMG_0001.JPG").click()  # select mode: a tap toggles
        wait("badges -, 1, 2", lambda: [page.badges()[f"IMG_000{i}.JPG"] for i in (1, 2, 3)] == ["", "1", "2"])
        driver.switch_to.window(second)
        wait("badges -, 1, 2 in the second tab, without a reload",
             lambda: [page.badges()[f"IMG_000{i}.JPG"] for i in (1, 2, 3)] == ["", "1", "2"])
        page.read_console()
        driver.close()
        driver.switch_to.window(first)

        step("the protected photo cannot be selected")
        page.cell("IMG_0007.JPG").click()
        wait("a toast saying it is protected", lambda: "protected" in page.js(
            "return document.getElementById('toast').textContent"))
        if page.badges()["IMG_0007.JPG"]:
            raise Failure("the protected photo got a badge")

        step("accessibility with a selection (axe-core)")
        page.axe("grid")

        step("the plan: Delete shows it, confirm trashes")
        page.set_size("desktop")
        page.cell("IMG_0004.JPG").click()
        wait("badge 3", lambda: page.badges()["IMG_0004.JPG"] == "3")
        page.key(Keys.DELETE)
        wait("the plan", lambda: page.js("return document.getElementById('plan').open"))
        summary = page.js("return document.querySelector('.plan-summary').textContent")
        if not summary.startswith("Move 3 photos (3 files,"):
            raise Failure(f"the plan says {summary!r}")
        order = page.js("return [...document.querySelectorAll('.plan-items li')].map(l => l.textContent)")
        if [entry.split(" ")[1] for entry in order] != ["IMG_0004.JPG", "IMG_0003.JPG", "IMG_0002.JPG"]:
            raise Failure(f"the plan's order is {order}: descending positions expected")
        page.axe("plan")
        page.screenshot("plan")
        driver.find_element(By.CSS_SELECTOR, ".plan-confirm").click()
        wait("the photos to leave the grid", lambda: len(page.cells()) == 4)
        toast = wait("the toast", lambda: page.js("return document.getElementById('toast').textContent"))
        if "Moved 3 files" not in toast or "Undo" not in toast:
            raise Failure(f"the toast says {toast!r}")
        if page.js("return document.body.classList.contains('selecting')"):
            raise Failure("still in select mode after the batch")

        step("the photos are in the freedesktop trash")
        def trashed():
            out = trash_list(args.data_home)
            return out if all(f"a/IMG_000{i}.JPG" in out for i in (2, 3, 4)) else None
        listed = wait("trash-list to list them", trashed)
        step(f"trash-list: {listed.strip().splitlines()}")

        step("the trash view lists the batch")
        page.key("t")
        wait("the trash view", lambda: page.js("return document.getElementById('trash').open"))
        wait("3 files in it", lambda: page.js("return document.querySelector('.trash-summary').textContent").startswith("3 files"))
        batch = page.js("return document.querySelector('.trash-batch').textContent")
        if not all(f"pics/a/IMG_000{i}.JPG" in batch for i in (2, 3, 4)):
            raise Failure(f"the trash view shows {batch!r}")
        page.axe("trash")
        driver.find_element(By.CSS_SELECTOR, ".trash-close").click()
        wait("the trash view closed", lambda: not page.js("return document.getElementById('trash').open"))

        step("undo: the toast's Undo is the daemon's undo of the batch")
        driver.find_element(By.XPATH, "//div[@id='toast']//button[text()='Undo']").click()
        wait("the photos back in the grid", lambda: len(page.cells()) == 7)
        for i in (2, 3, 4):
            if not os.path.exists(os.path.join(args.root, "a", f"IMG_000{i}.JPG")):
                raise Failure(f"IMG_000{i}.JPG is not back on disk")
        wait("the trash to be empty of them", lambda: "IMG_000" not in trash_list(args.data_home))

        step("stars and flag: 3 then P on a photo, drawn from the daemon's answer")
        page.js("arguments[0].focus()", page.cell("IMG_0006.JPG"))
        page.key("3")
        page.key("p")
        wait("IMG_0006.JPG's cell saying 3 stars, picked", lambda: "3 stars, picked" in page.cell("IMG_0006.JPG").get_attribute("aria-label"))
        drawn = page.js("const m = arguments[0].querySelector('.cell-marks'); return [m.hidden, "
                        "m.querySelector('.marks-stars').textContent, m.querySelector('.marks-flag').dataset.flag]",
                        page.cell("IMG_0006.JPG"))
        if drawn != [False, "★★★", "pick"]:
            raise Failure(f"the cell draws {drawn}")
        listed = marks_by_ctl(args)
        if listed.get("b/IMG_0006.JPG") != (3, "pick", None):
            raise Failure(f"curatorctl ls says {listed}")
        written = exiftool_marks(os.path.join(args.root, "b"))
        if not any(name.startswith("IMG_0006") and rating == 3 for name, rating in written):
            raise Failure(f"exiftool reads the sidecars as {written}")

        step("marks pressed fast: one toast, updated, and the last key's mark stays")
        page.js("arguments[0].focus()", page.cell("IMG_0006.JPG"))
        # "2" only last: the photo is at 3 stars, picked, so "2 stars, picked" on the
        # cell and "2 stars" in the toast can only mean that every mark is in.
        page.key("1", "3", "4", "5", "1", "3", "4", "5", "4", "p", "u", "p", "2")
        wait("IMG_0006.JPG's cell saying 2 stars, picked", lambda: "2 stars, picked" in page.cell("IMG_0006.JPG").get_attribute("aria-label"))
        wait("the toast saying the last mark", lambda: "IMG_0006.JPG: 2 stars." in page.js("return document.getElementById('toast').textContent"))
        toasts = page.js("return [...document.querySelectorAll('#toast .toast-item')].map(t => t.textContent)")
        if len([t for t in toasts if "IMG_0006.JPG:" in t]) != 1 or len(toasts) > 3:
            raise Failure(f"the toasts pile up: {toasts}")
        if marks_by_ctl(args).get("b/IMG_0006.JPG") != (2, "pick", None):
            raise Failure(f"curatorctl ls says {marks_by_ctl(args).get('b/IMG_0006.JPG')} after the keys")

        step("a sidecar exiftool writes on disk shows on the cell without a reload")
        out = subprocess.run(["exiftool", "-q", "-o", os.path.join(args.root, "b", "IMG_0005.JPG.xmp"),
                              "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red"], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise Failure(f"exiftool: {out.stdout} {out.stderr}")
        wait("IMG_0005.JPG's cell saying 4 stars, red label",
             lambda: "4 stars, red label" in page.cell("IMG_0005.JPG").get_attribute("aria-label"), timeout=30)
        page.set_size("desktop")
        page.screenshot("marks-desktop")
        page.cell("IMG_0005.JPG").click()  # view mode: the loupe
        wait("the loupe's marks", lambda: page.js(
            "return document.querySelector('.loupe-marks').getAttribute('aria-label')") == "4 stars, red label")
        page.key("x")
        # A reject is xmp:Rating -1 (docs/XMP.md): the stars go, as the daemon then says.
        wait("the loupe's marks saying rejected", lambda: page.js(
            "return document.querySelector('.loupe-marks').getAttribute('aria-label')") == "rejected, red label")
        if "rejected, red label" not in page.cell("IMG_0005.JPG").get_attribute("aria-label"):
            raise Failure("the grid's cell did not follow the loupe's reject")
        page.screenshot("marks-loupe")
        page.key(Keys.ESCAPE)
        wait("back to the grid", lambda: page.js("return document.getElementById('loupe').hidden"))
        page.axe("marks")

        step("a file created on disk appears without a reload")
        shutil.copyfile(args.sample, os.path.join(args.root, "b", "IMG_0008.JPG.part"))
        os.rename(os.path.join(args.root, "b", "IMG_0008.JPG.part"), os.path.join(args.root, "b", "IMG_0008.JPG"))
        wait("IMG_0008.JPG in the grid", lambda: "IMG_0008.JPG" in page.badges())
        wait("folder b counting 3", lambda: page.js(
            "return [...document.querySelectorAll('.tree-item')].some(b => b.getAttribute('aria-label') === 'b, 3 photos')"))

        step("the keys: ? lists them")
        page.cell("IMG_0005.JPG").click()  # view mode: the loupe
        wait("the loupe", lambda: page.js("return !document.getElementById('loupe').hidden"))
        page.key(Keys.ESCAPE)
        wait("back to the grid", lambda: page.js("return document.getElementById('loupe').hidden"))
        page.key("?")
        wait("the list of keys", lambda: page.js("return document.getElementById('help').open"))
        keys = page.js("return document.querySelector('.help-body').textContent")
        for expected in ("Space", "Enter", "Delete", "Ctrl+Z", "Esc"):
            if expected not in keys:
                raise Failure(f"the key list lacks {expected}: {keys}")
        page.axe("help")
        page.key(Keys.ESCAPE)
        wait("the list closed", lambda: not page.js("return document.getElementById('help').open"))

        step("compare two photos")
        driver.find_element(By.ID, "mode").click()
        wait("select mode", lambda: page.js("return document.body.classList.contains('selecting')"))
        page.cell("IMG_0005.JPG").click()
        page.cell("IMG_0006.JPG").click()
        wait("two selected", lambda: page.badges()["IMG_0006.JPG"] == "2")
        page.key("c")
        wait("compare", lambda: page.js("return !document.getElementById('compare').hidden"))
        # IMG_0005 (3000x2000) from its 2560 px screen picture, IMG_0006 (1200x800) its own.
        sizes = "return [...document.querySelectorAll('.compare-panes img')].map(i => i.complete ? i.naturalWidth : 0)"
        wait("the two screen pictures", lambda: page.js(sizes) == [2560, 1200])
        page.key("z")
        transforms = page.js("return [...document.querySelectorAll('.compare-panes img')].map(i => i.style.transform)")
        if len(set(t.split("scale")[0] for t in transforms)) != 1 or "translate" not in transforms[0]:
            raise Failure(f"the compared photos did not zoom together: {transforms}")
        page.key("+")
        wait("IMG_0005 itself, zoomed past its picture", lambda: page.js(sizes) == [3000, 1200]
             and page.js("return document.querySelector('.compare-panes img').src.includes('/preview')"))
        page.screenshot("compare")
        page.key(Keys.ESCAPE)

        step("screenshots at phone, tablet and desktop sizes")
        for name in ("phone", "tablet", "desktop"):
            page.set_size(name)
            page.screenshot(name)
        page.set_size("phone")
        page.axe("phone")
        page.js("arguments[0].focus()", page.cell("IMG_0001.JPG"))
        page.key(Keys.ENTER)  # select mode: a tap would select; Enter opens
        wait("the loupe", lambda: page.js("return !document.getElementById('loupe').hidden"))
        wait("the preview to load", lambda: page.js(PREVIEW_SHOWN, "IMG_0001.JPG"))
        page.screenshot("phone-loupe")
        page.key(Keys.ESCAPE)

        step("no message in the browser's console")
        page.expect_quiet_console()
        step("done")
    except Failure as failure:
        try:
            state = page.js("return {badges: [...document.querySelectorAll('[role=gridcell]')].map(c => c.getAttribute('aria-label')),"
                            " status: document.getElementById('selection-status').textContent,"
                            " toast: document.getElementById('toast').textContent, focus: document.activeElement.outerHTML.slice(0, 120)}")
            page.read_console()
        except WebDriverException as error:
            state = str(error)
        raise Failure(f"{failure}\npage: {json.dumps(state)}\nconsole: {json.dumps(page.console)}")
    finally:
        driver.quit()


def run_script(run, args):
    """A test script's `run(args)`: exits 1 with the reason at the first failure."""
    os.makedirs(args.screenshots, exist_ok=True)
    try:
        run(args)
    except Failure as failure:
        print("FAILED:", failure, flush=True)
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--browser", choices=["chromium", "webkit"], required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--data-home", required=True)
    parser.add_argument("--sample", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--axe", default=None)
    parser.add_argument("--curatorctl", default="curatorctl")
    args = parser.parse_args()
    if args.axe is None:
        import axe_selenium_python
        args.axe = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    run_script(run, args)


if __name__ == "__main__":
    main()
