"""Drives the page of `marquee serve` in headless Chromium, as a person would.

Usage: page_check.py URL MESSAGE EXPECTED-FRAME-FILE [SCREENSHOT.png]

Checks that the canvas shows what /api/frame says, that typing MESSAGE in the form and
pressing Show makes the sign show EXPECTED-FRAME-FILE (its '#'/'.' rows, as
`marquee --output ascii` renders MESSAGE) and the canvas with it, and prints one line:
"page ok: ..." or the failure, exiting 1.
Needs Debian's chromium and chromium-driver, and selenium from PyPI.
"""
import json
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def api(url, path):
    with urllib.request.urlopen(url + path, timeout=10) as response:
        return response.read().decode()


def wait(condition, what, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def canvas_frame(driver):
    """The LEDs the canvas shows, as '#'/'.' rows, read from its pixels."""
    return driver.execute_script(
        """
        const canvas = document.getElementById('sign');
        if (!canvas.dataset.frame) return null;
        const rows = canvas.dataset.frame.split(',');
        const height = rows.length, width = canvas.width / (canvas.width / (rows[0].length * 4));
        const g = canvas.getContext('2d');
        const cellW = canvas.width / (rows[0].length * 4), cellH = canvas.height / height;
        const out = [];
        for (let y = 0; y < height; y++) {
          let line = '';
          for (let x = 0; x < rows[0].length * 4; x++) {
            const p = g.getImageData(Math.floor(x * cellW + cellW / 2), Math.floor(y * cellH + cellH / 2), 1, 1).data;
            line += p[0] > 128 && p[1] < 128 ? '#' : '.';
          }
          out.push(line);
        }
        return out.join('\\n');
        """
    )


def main():
    url = sys.argv[1].rstrip("/")
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=480,760"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url + "/")
        state = json.loads(api(url, "/api/state"))
        width = state["width"]
        # The canvas draws what the API says the sign shows.
        expected = "\n".join(api(url, "/api/frame").strip().split("\n"))
        shown = wait(lambda: (canvas_frame(driver) or "")[: len(expected)] == expected and canvas_frame(driver), "the canvas to show /api/frame")
        shown = "\n".join(row[:width] for row in shown.split("\n"))
        assert shown == expected, "canvas:\n%s\napi:\n%s" % (shown, expected)
        # The form changes the message, and the sign's frames change with it.
        wait(lambda: driver.find_element(By.ID, "messages").get_attribute("value"), "the form to be filled")
        box = driver.find_element(By.ID, "messages")
        box.clear()
        box.send_keys(sys.argv[2])
        driver.find_element(By.ID, "send").click()
        wait(lambda: json.loads(api(url, "/api/state"))["zones"][0]["messages"] == [sys.argv[2]], "the new message in /api/state")
        with open(sys.argv[3]) as file:
            changed = file.read().strip()
        wait(lambda: api(url, "/api/frame").strip() == changed, "the sign to show the new message")
        wait(lambda: "\n".join(r[:width] for r in (canvas_frame(driver) or "").split("\n")) == changed, "the canvas to show it")
        if len(sys.argv) > 4:
            driver.save_screenshot(sys.argv[4])
        print("page ok: the canvas matched /api/frame before and after the form changed the message")
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print("page failed: %s" % error)
        sys.exit(1)
