#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The page (web/) through the system service (curatord-web --system), signed in to with
real users' web passwords, in headless Chromium: one browser (its own cookies) per user.
Started by the Swift test WebPageUsersTests, which made the users, the files and the
daemon.

    users_page_test.py --scenario users|expiry --base http://127.0.0.1:PORT --root DIR
        --alice NAME --alice-password PW --bob NAME --bob-password PW
        [--private-id ID] [--idle SECONDS] --screenshots DIR

The root holds shared/IMG_0001..3.JPG (the family's folder; 0001 and 0003 alice's,
0002 bob's) and private/IMG_0004.JPG (alice's folder, 0700), beside the service's
alice.jpg and bob/private.jpg.

- users: bob and alice sign in; bob's page never shows alice's private folder or its
  photo (folder list, grid, the photo's address typed), the shared folder shows to
  both, and alice's trash of a shared photo leaves bob's grid without a reload.
- expiry: bob signs in and selects a photo; left idle past the session's time, the page
  goes to the sign-in form by itself, saying why; signing in again finds the selection.

Prints one line per step; exits 1 with the reason at the first failure.
"""
import argparse
import json
import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_test import Failure, Page, run_script, step, wait

SHARED = ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.JPG"]
PRIVATE = "IMG_0004.JPG"


def open_page(args, who):
    page = Page(argparse.Namespace(browser="chromium", url=args.base + "/login", screenshots=args.screenshots, axe=args.axe))
    page.who = who
    page.expected = []  # console messages this test causes on purpose: (what, words in the message)
    return page


def sign_in(page, user, password):
    """Fills the page's sign-in form; the page must then load signed in."""
    wait(f"{page.who}'s sign-in form", lambda: page.driver.current_url.endswith("/login")
         and page.js("return Boolean(document.getElementById('sign-in-form'))"))
    page.hook_console()
    name = page.driver.find_element(By.ID, "sign-in-user")
    name.clear()
    name.send_keys(user)
    secret = page.driver.find_element(By.ID, "sign-in-password")
    secret.clear()
    secret.send_keys(password, Keys.ENTER)
    wait(f"{page.who}'s page, signed in", lambda: not page.driver.current_url.endswith("/login")
         and page.js("return document.body.dataset.ready === 'true'"))
    page.hook_console()


def names(page):
    return set(page.badges())


def folders(page):
    return page.js("return [...document.querySelectorAll('.tree-item')].map(b => b.getAttribute('aria-label'))") or []


def fetch_status(page, path):
    return page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {credentials: 'same-origin', cache: 'no-store'}).then(r => done(r.status), e => done(String(e)));", path)


def check_console(page):
    """Fails on any console message but those the test caused on purpose."""
    page.read_console()
    left = [m for m in page.console if not any(all(word in m for word in words) for _, words in page.expected)]
    if left:
        raise Failure(f"{page.who}'s console said: " + json.dumps(left))


def users(args):
    bob = open_page(args, "bob")
    alice = open_page(args, "alice")
    pages = [bob, alice]
    try:
        step("bob: / without a session is the sign-in form")
        bob.set_size("phone")
        bob.driver.get(args.base + "/")
        wait("the sign-in form at /login", lambda: bob.driver.current_url.endswith("/login")
             and bob.js("return Boolean(document.getElementById('sign-in-form'))"))
        bob.hook_console()
        bob.axe("sign-in")

        step("a wrong password is refused on the form, which stays")
        bob.expected.append(("the wrong password's answer", ["/api/v1/login", "401"]))
        bob.driver.find_element(By.ID, "sign-in-user").send_keys(args.bob)
        bob.driver.find_element(By.ID, "sign-in-password").send_keys("not bob's password", Keys.ENTER)
        said = wait("the form to say why", lambda: bob.js("return document.getElementById('sign-in-error').textContent"))
        step(f"the form says: {said}")
        if not bob.driver.current_url.endswith("/login"):
            raise Failure("a wrong password left the sign-in form")
        bob.screenshot("users-sign-in-phone")
        bob.set_size("desktop")

        step("bob and alice sign in, each in a browser of their own")
        sign_in(bob, args.bob, args.bob_password)
        alice.driver.get(args.base + "/")
        sign_in(alice, args.alice, args.alice_password)

        step("alice sees her private folder and its photo (what bob must not)")
        wait("alice's grid with her private photo and the shared ones",
             lambda: set(SHARED + [PRIVATE]) <= names(alice))
        wait("alice's folder list with private and shared", lambda: any(f.startswith("private, 1 photo") for f in folders(alice))
             and "shared, 3 photos" in folders(alice))

        step("bob: neither the folder list nor the grid shows alice's private folder")
        wait("bob's grid with the shared photos", lambda: set(SHARED) <= names(bob))
        wait("bob's folder list with the shared folder", lambda: "shared, 3 photos" in folders(bob))
        time.sleep(2)  # the folder list is refreshed after a listing: what bob sees once it has settled
        if PRIVATE in names(bob):
            raise Failure(f"bob's grid shows alice's private photo: {sorted(names(bob))}")
        if any(f.startswith("private,") for f in folders(bob)):
            raise Failure(f"bob's folder list shows alice's private folder: {folders(bob)}")
        if "IMG_0004" in bob.js("return document.documentElement.outerHTML"):
            raise Failure("bob's page holds the name of alice's private photo")
        counts = bob.js("return document.getElementById('view-count').textContent")
        step(f"bob's view: {counts}; folders {folders(bob)}")

        step("bob types the address of alice's private photo: refused, nothing shown")
        for what in ("normal", "preview", "original"):
            path = f"/photo/{args.private_id}/{what}"
            if what == "original" and fetch_status(alice, path) != 200:
                raise Failure(f"alice gets {path} {fetch_status(alice, path)}: the test's photo is not hers to see")
            status = fetch_status(bob, path)
            if status != 404:
                raise Failure(f"bob gets {path} with status {status}")
        bob.expected.append(("alice's photo's address, typed", [f"/photo/{args.private_id}/", "404"]))
        bob.expected.append(("the icon a browser asks for beside a page that names none", ["/favicon.ico", "404"]))
        bob.driver.get(args.base + f"/photo/{args.private_id}/original")
        shown = wait("bob's browser to show the answer", lambda: bob.js(
            "return document.readyState === 'complete' && [document.images.length, document.body ? document.body.innerText : '']"))
        if shown[0] != 0 or "no_such_photo" not in shown[1]:
            raise Failure(f"bob's browser shows {shown}")
        # The browser's own document around a bare image styles it inline, which the
        # gateway's policy forbids (said in the console, the image shown all the same).
        alice.expected.append(("the browser's image document under the CSP", [f"/photo/{args.private_id}/original", "Content Security Policy"]))
        alice.expected.append(("the icon a browser asks for beside a page that names none", ["/favicon.ico", "404"]))
        alice.driver.get(args.base + f"/photo/{args.private_id}/original")
        seen = wait("alice's browser to show her photo", lambda: alice.js(
            "const i = document.images[0]; return i && i.complete && i.naturalWidth > 0 && i.naturalWidth"))
        step(f"alice's browser shows it, {seen} pixels wide; bob's: {shown[1][:80]!r}")
        bob.driver.get(args.base + "/")
        bob.ready()
        alice.driver.get(args.base + "/")
        alice.ready()
        wait("bob's grid again", lambda: set(SHARED) <= names(bob))

        step("alice trashes a shared photo: it leaves bob's grid without a reload")
        bob.js("window.__sameDocument = true;")
        wait("alice's grid again", lambda: "IMG_0003.JPG" in names(alice))
        alice.driver.find_element(By.ID, "mode").click()
        wait("alice in select mode", lambda: alice.js("return document.body.classList.contains('selecting')"))
        # A cell may be drawn again under the click (a listing came): asked again then.
        wait("a click on IMG_0003.JPG", lambda: alice.cell("IMG_0003.JPG").click() or True)
        wait("alice's badge 1", lambda: alice.badges()["IMG_0003.JPG"] == "1")
        alice.key(Keys.DELETE)
        wait("alice's plan", lambda: alice.js("return document.getElementById('plan').open"))
        alice.driver.find_element(By.CSS_SELECTOR, ".plan-confirm").click()
        wait("the photo to leave alice's grid", lambda: "IMG_0003.JPG" not in names(alice))
        wait("the photo to leave bob's grid", lambda: "IMG_0003.JPG" not in names(bob), timeout=20)
        if not bob.js("return window.__sameDocument === true"):
            raise Failure("bob's page was loaded again")
        if not {"IMG_0001.JPG", "IMG_0002.JPG"} <= names(bob):
            raise Failure(f"bob's grid lost more: {sorted(names(bob))}")
        if os.path.exists(os.path.join(args.root, "shared", "IMG_0003.JPG")):
            raise Failure("the photo is still on disk")
        wait("bob's folder list counting 2 in shared", lambda: "shared, 2 photos" in folders(bob), timeout=20)

        step("bob's page at phone, tablet and desktop sizes")
        for size in ("phone", "tablet", "desktop"):
            bob.set_size(size)
            bob.screenshot(f"users-bob-{size}")
        bob.axe("bob's page")

        step("no message in either console but those caused on purpose")
        for page in pages:
            check_console(page)
        step("done")
    finally:
        for page in pages:
            page.driver.quit()


def expiry(args):
    bob = open_page(args, "bob")
    try:
        step("bob signs in and selects a photo")
        bob.driver.get(args.base + "/")
        sign_in(bob, args.bob, args.bob_password)
        wait("bob's grid", lambda: "IMG_0002.JPG" in names(bob))
        wait("the focus on IMG_0002.JPG", lambda: bob.js("arguments[0].focus(); return true", bob.cell("IMG_0002.JPG")))
        bob.key(Keys.SPACE)
        wait("badge 1 on IMG_0002.JPG", lambda: bob.badges()["IMG_0002.JPG"] == "1")
        bob.read_console()

        step(f"left alone past the session's {args.idle} s, the page goes to the sign-in form by itself")
        # What the page is refused once its session ended: said by the browser itself.
        bob.expected.append(("the requests the ended session was refused", ["/api/v1/", "401"]))
        started = time.monotonic()
        states = set()

        def at_form():
            bob.read_console()
            if bob.driver.current_url.endswith("/login"):
                return bob.js("return Boolean(document.getElementById('sign-in-form'))")
            states.add(bob.js("return [document.body.dataset.ready, document.getElementById('connection').hidden].join()"))
            return False
        wait("the sign-in form", at_form, timeout=args.idle + 30, interval=0.25)
        step(f"at the sign-in form after {time.monotonic() - started:.1f} s; page states seen before: {sorted(states)}")
        reason = bob.js("return document.getElementById('sign-in-reason').textContent")
        if "session ended" not in reason:
            raise Failure(f"the sign-in form does not say why: {reason!r}")
        bob.set_size("phone")
        bob.screenshot("users-expired-phone")
        bob.set_size("desktop")

        step("signing in again: the page resumes with the selection as it was")
        sign_in(bob, args.bob, args.bob_password)
        wait("badge 1 on IMG_0002.JPG again", lambda: bob.badges().get("IMG_0002.JPG") == "1")
        if not bob.js("return document.body.classList.contains('selecting')"):
            raise Failure("the page is not in select mode after signing in again")
        if not bob.js("return document.getElementById('connection').hidden"):
            raise Failure("the page says its connection is lost")
        bob.screenshot("users-resumed-desktop")

        step("no message in the console but the refusals of the ended session")
        check_console(bob)
        step("done")
    finally:
        bob.driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", choices=["users", "expiry"], required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--alice", required=True)
    parser.add_argument("--alice-password", required=True)
    parser.add_argument("--bob", required=True)
    parser.add_argument("--bob-password", required=True)
    parser.add_argument("--private-id", type=int, default=0)
    parser.add_argument("--idle", type=int, default=0)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--axe", default=None)
    args = parser.parse_args()
    if args.axe is None:
        import axe_selenium_python
        args.axe = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    run_script({"users": users, "expiry": expiry}[args.scenario], args)


if __name__ == "__main__":
    main()
