"""Drives the page of `marquee serve` in headless Chromium, as a person would.

Usage: page_check.py URL MESSAGE EXPECTED-FRAME-FILE [SCREENSHOT.png]
       page_check.py --token URL TOKEN
       page_check.py --programs URL PLAYING OTHER
       page_check.py --notify URL
       page_check.py --language URL
       page_check.py --preview URL
       page_check.py --panel URL VERSION
       page_check.py --week URL SCHEDULE-TEXT-FILE
       page_check.py --icons URL
       page_check.py --upload URL TOKEN PICTURE.pbm
       page_check.py --night URL
       page_check.py --zones URL
       page_check.py --draft URL SIGN-PID
       page_check.py --screenshots URL FOLDER   (Docs/serve-page-phone*.png and -desktop.png)
       page_check.py --phone URL SENTENCE-ZH SENTENCE-EN
       page_check.py --accessibility URL   (needs axe-selenium-python)
       page_check.py --serve   (one check a line, below)

With --serve it reads checks from standard input, one a line as a JSON array of the
arguments above, and answers each with one line, a JSON object with "status" (0 passed,
1 failed, 2 broke) and "output"; the checks share one browser, started once, and the page
of one check leaves nothing to the next (its windows, prompts, storage and size are reset).

Checks that the canvas shows what /api/frame says, that typing MESSAGE in the form and
pressing Show makes the sign show EXPECTED-FRAME-FILE (its '#'/'.' rows, as
`marquee --output ascii` renders MESSAGE) and the canvas with it, and prints one line:
"page ok: ..." or the failure, exiting 1.

With --token (a sign that asks for one): the page asks once; given a wrong token it asks
no more (no prompt for three seconds), says the token was not accepted and shows its
button; the button asks again, and with the right token the canvas shows the sign.

With --programs: the program list names both programs and marks PLAYING; the editor adds a
program, changes OTHER (keeping what the form does not show), shows a bad time's error with
its field and changes nothing, and deletes the new program.
Needs Debian's chromium and chromium-driver, and selenium from PyPI.
"""
import contextlib
import io
import json
import sys
import time
import traceback
import urllib.request
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def api(url, path, token=None, body=None):
    headers = {"Authorization": "Bearer " + token} if token else {}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def wait(condition, what, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def tapped_twice_while_held(driver, path, first, second, said, also=None):
    """Taps `first`, holds the page's change to `path` (any request but a GET) until both
    taps are made, taps `second`, and asserts the page made one request (`said` if not),
    and `also` while it is held; then lets the request go on."""
    driver.execute_script("""
      const real = window.fetch, path = arguments[0];
      window.heldRequests = 0;
      window.fetch = (url, ...rest) => {
        const method = (rest[0] && rest[0].method) || 'GET';
        if (!String(url).startsWith(path) || method === 'GET') return real(url, ...rest);
        window.heldRequests++;
        return new Promise((resolve) => { window.releaseHeld = () => { window.fetch = real; resolve(real(url, ...rest)); }; });
      };""", path)
    first.click()
    wait(lambda: driver.execute_script("return window.heldRequests") == 1, "the request made", FINDER_SECONDS)
    try:
        second.click()
    except Exception:
        pass  # an inert button takes no click
    assert driver.execute_script("return window.heldRequests") == 1, said
    assert also is None or also(), "the page open to a second tap while the request is held"
    driver.execute_script("window.releaseHeld()")


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


# With --serve: the browser the checks share (those without a language of their own).
shared = None


def browser(language=None):
    """A browser for a check; with --serve and no language, the shared one, which `quit` resets."""
    global shared
    if SERVING and language is None:
        if shared is None:
            driver = started_browser()
            size = driver.get_window_size()
            driver.quit = lambda: reset(driver, size)
            shared = driver
        return shared
    return started_browser(language)


def reset(driver, size):
    """Leaves the shared browser as it started: one blank window of its first size, no prompt,
    and nothing stored for the page's origin (the next sign may listen on the same port)."""
    try:
        try:
            driver.switch_to.alert.dismiss()
        except NoAlertPresentException:
            pass
        for handle in driver.window_handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])
        if driver.current_url.startswith("http"):
            driver.execute_script("localStorage.clear(); sessionStorage.clear();")
            driver.delete_all_cookies()
        driver.get("about:blank")
        driver.set_window_size(size["width"], size["height"])
    except Exception:
        discard()


def discard():
    """Ends the shared browser; the next check starts another."""
    global shared
    if shared is not None:
        driver, shared = shared, None
        try:
            type(driver).quit(driver)
        except Exception:
            pass


def started_browser(language=None):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=480,760"]:
        options.add_argument(argument)
    if language:
        # The browser's own language, as a phone set to Chinese sends it.
        options.add_argument("--lang=" + language)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.binary_location = "/usr/bin/chromium"
    # Prompts stay open for the script to answer.
    options.set_capability("unhandledPromptBehavior", "ignore")
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def opened(url, language=None, width=None, section="now"):
    """A browser on the sign's page (at `width` pixels) at a section's address, as a bookmark
    opens it, and a finder of its elements by id."""
    driver = browser(language)
    if width:
        driver.set_window_size(width, 900)
    driver.get(url + "/#" + section)
    return driver, lambda name: driver.find_element(By.ID, name)


def go(driver, section):
    """Taps the section's tab, as a person does."""
    driver.find_element(By.CSS_SELECTOR, '#tabs a[data-tab="%s"]' % section).click()
    wait(lambda: driver.execute_script("return document.body.dataset.section") == section, "the %s section" % section)


def prompt(driver):
    """The open prompt, or None."""
    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


def token_check():
    url, token = sys.argv[2].rstrip("/"), sys.argv[3]
    driver = browser()
    try:
        driver.get(url + "/")
        wait(lambda: prompt(driver), "the page to ask for the token").send_keys("not-the-token")
        driver.switch_to.alert.accept()
        # Asked once: no prompt again, however long the page runs.
        deadline = time.time() + 3
        prompts = 0
        while time.time() < deadline:
            alert = prompt(driver)
            if alert:
                prompts += 1
                alert.dismiss()
            time.sleep(0.05)
        assert prompts == 0, "the page asked %d more times after a wrong token" % prompts
        status = driver.find_element(By.ID, "card-status").text
        assert "did not accept" in status, "status: %r" % status
        button = driver.find_element(By.ID, "token")
        assert button.is_displayed(), "no button to enter the token again"
        button.click()
        wait(lambda: prompt(driver), "the button to ask for the token").send_keys(token)
        driver.switch_to.alert.accept()
        expected = api(url, "/api/frame", token).strip()
        wait(lambda: (canvas_frame(driver) or "")[: len(expected)] == expected, "the canvas to show the sign with the token")
        assert not button.is_displayed(), "the button stays after the right token"
        print("page ok: asked once, refused a wrong token without asking again, and showed the sign with the right one")
    finally:
        driver.quit()


def programs_check():
    """The program list: both programs named, the one playing marked."""
    url, playing, other = sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
    driver = browser()
    # Every fetch the page issues, counted as it is issued (a script put in before the page's
    # own), for the check of one fetch per thing below.
    counter = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.fetchedPaths = [];
        const pageFetch = window.fetch;
        window.fetch = function (input, init) {
          window.fetchedPaths.push(new URL(typeof input === 'string' ? input : input.url, location.href).pathname);
          return pageFetch.apply(this, arguments);
        };"""})
    try:
        driver.get(url + "/#programs")
        # Read in one go: the list is drawn again when the state changes.
        read = """return [...document.querySelectorAll('#program-list li')].map((li) =>
            [li.dataset.name, li.getAttribute('aria-current') === 'true', li.textContent]);"""
        items = wait(lambda: (lambda found: found if len(found) == 2 else None)(driver.execute_script(read)), "the program list")
        assert driver.find_element(By.ID, "programs").is_displayed(), "the programs section is hidden"
        names = [item[0] for item in items]
        assert names == [playing, other], "programs %r" % names
        marked = [item[0] for item in items if item[1]]
        assert marked == [playing], "marked as playing: %r" % marked
        assert "playing" in items[0][2] and "playing" not in items[1][2], "texts %r" % [i[2] for i in items]
        # One fetch per thing on load: the schedule and the programs once each, however many
        # parts of the page read them, and none again for the event stream's first state
        # (which comes before its first frame: once the preview is drawn, it was handled).
        wait(lambda: field_loaded(driver), "the night form filled from the schedule")
        wait(lambda: canvas_frame(driver), "the event stream's first frame drawn")
        counts = driver.execute_script("""const names = window.fetchedPaths;
            return {schedule: names.filter((n) => n === '/api/schedule').length, programs: names.filter((n) => n === '/api/programs').length};""")
        assert counts == {"schedule": 1, "programs": 1}, "fetches on load: %r" % counts
        edit_programs(driver, url, other)
        print("page ok: the programs are listed, %s is marked as playing, and the editor adds, changes, "
              "refuses and deletes programs" % playing)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": counter["identifier"]})
        driver.quit()


def field_loaded(driver):
    return driver.execute_script("return document.getElementById('night-form').dataset.loaded === '1';")


def listed_programs(url):
    return json.loads(api(url, "/api/programs"))["programs"]


def edit(driver, name):
    """Presses a program's Edit button (found and pressed at once: the list is drawn again
    whenever the sign's state changes)."""
    driver.execute_script(
        "document.querySelector('#program-list li[data-name=\"' + arguments[0] + '\"] button.edit').click();", name)


def set_times(driver, ranges):
    """The editor's day stretches, from time pickers: the old ones removed, each added with
    its button and set (a time picker's typing depends on the browser's locale)."""
    driver.execute_script("for (const row of document.querySelectorAll('#program-times .range')) row.remove();")
    for start, end in ranges:
        driver.find_element(By.ID, "add-time").click()
        driver.execute_script("""const inputs = document.querySelectorAll('#program-times .range:last-of-type input');
            inputs[0].value = arguments[0]; inputs[1].value = arguments[1];""", start, end)


def edit_programs(driver, url, other):
    """The editor, as a person on a phone uses it: a new program, a change to another, a
    bad time refused with its field named and nothing changed, and a deletion."""
    def field(name):
        return driver.find_element(By.ID, name)

    def fill(name, text):
        field(name).clear()
        field(name).send_keys(text)

    field("new-program").click()
    wait(lambda: field("program-editor").is_displayed(), "the editor")
    fill("program-name", "lunch")
    set_times(driver, [("11:30", "14:00")])
    fill("program-messages", "Lunch menu\nSoup of the day")
    fill("program-count", "12")
    for box in driver.find_elements(By.CSS_SELECTOR, "#program-days input"):
        if box.get_attribute("value") in ("mon", "fri"):
            box.click()
    field("program-save").click()
    wait(lambda: len(listed_programs(url)) == 3, "the new program in /api/programs")
    lunch = listed_programs(url)[2]
    assert lunch == {"name": "lunch", "days": ["mon", "fri"], "times": ["11:30-14:00"],
                     "messages": ["Lunch menu", "Soup of the day"], "seconds": 12}, "saved %r" % lunch
    wait(lambda: not field("program-editor").is_displayed(), "the editor to close")
    # Read in one script: the page rebuilds the list at every state event, so elements
    # found one call earlier may be gone by the next.
    names = lambda: driver.execute_script("return [...document.querySelectorAll('#program-list li')].map((li) => li.dataset.name);")
    wait(lambda: "lunch" in names(),
         "lunch in the list")
    # Due with "always" on Mondays and Fridays at lunch: the list says they take turns.
    overlap = lambda: driver.execute_script(
        "const li = document.querySelector('#program-list li[data-name=\"lunch\"] .overlap'); return li ? li.textContent : '';")
    wait(lambda: overlap() == "Due at the same time as always: they take turns", "the overlap said (%r)" % overlap())
    # Its preview, as it will play, drawn by the sign: a picture, said in words, nothing saved.
    edit(driver, "lunch")
    wait(lambda: field("program-name").get_attribute("value") == "lunch", "the editor on lunch")
    before_preview = listed_programs(url)
    field("program-preview").click()
    wait(lambda: driver.execute_script(
        "const i = document.getElementById('program-draft'); return i.complete && i.naturalWidth > 0 && !document.getElementById('program-draft-box').hidden;"),
        "the program's preview drawn")
    alt = field("program-draft").get_attribute("alt")
    assert alt == "Preview of program lunch: Lunch menu / Soup of the day", "alt %r" % alt
    assert listed_programs(url) == before_preview, "a preview changed the programs"
    field("program-cancel").click()
    wait(lambda: not field("program-editor").is_displayed(), "the editor to close after the preview")
    # A priority: lunch plays alone over "always" where they overlap, and the list says so.
    edit(driver, "lunch")
    wait(lambda: field("program-name").get_attribute("value") == "lunch", "the editor on lunch")
    driver.execute_script("document.getElementById('program-priority').value = '3';")
    field("program-save").click()
    wait(lambda: listed_programs(url)[2].get("priority") == 3, "the priority saved")
    wait(lambda: not field("program-editor").is_displayed(), "the editor to close after the priority")
    detail = lambda: driver.execute_script(
        "const li = document.querySelector('#program-list li[data-name=\"lunch\"]'); return li ? li.textContent : '';")
    wait(lambda: "priority 3" in detail() and overlap() == "", "the priority said, no turns (%r)" % detail())
    edit(driver, "lunch")
    wait(lambda: field("program-priority").get_attribute("value") == "3", "the editor shows the priority")
    driver.execute_script("document.getElementById('program-priority').value = '0';")
    field("program-save").click()
    wait(lambda: "priority" not in listed_programs(url)[2], "the priority back to 0")
    wait(lambda: not field("program-editor").is_displayed(), "the editor to close after priority 0")

    # Change the other program: its dates are kept, its times and mode change.
    before = [p for p in listed_programs(url) if p["name"] == other][0]
    edit(driver, other)
    wait(lambda: field("program-name").get_attribute("value") == other, "the editor on " + other)
    set_times(driver, [("08:00", "09:00")])
    driver.execute_script("document.getElementById('program-mode').value = 'cycle';")
    field("program-save").click()
    wait(lambda: [p for p in listed_programs(url) if p["name"] == other][0].get("times") == ["08:00-09:00"], "the change")
    # The page closes the editor when its own save answers, which can come after the API
    # shows the change: wait for it, or the next edit races the close.
    wait(lambda: not field("program-editor").is_displayed(), "the editor to close after the change")
    after = [p for p in listed_programs(url) if p["name"] == other][0]
    assert after.get("dates") == before.get("dates") and after.get("mode") == "cycle", "changed %r" % after

    # A bad time: the sign's error, with the field, and nothing changed.
    edit(driver, "lunch")
    wait(lambda: field("program-name").get_attribute("value") == "lunch", "the editor on lunch")
    # (Times and dates come from pickers; the last date before the first is still possible.)
    driver.execute_script("document.getElementById('program-date-from').value = '2026-12-26';"
                          "document.getElementById('program-date-to').value = '2026-12-24';")
    field("program-save").click()
    message = wait(lambda: field("editor-status").text, "the error")
    assert message == 'program “lunch”, dates: the last date, 2026-12-24, is before the first, 2026-12-26', "error %r" % message
    assert field("program-date-from").get_attribute("aria-invalid") == "true", "the dates are not marked"
    assert listed_programs(url)[2]["times"] == ["11:30-14:00"] and "dates" not in listed_programs(url)[2], "a refused change was made"
    field("program-delete").click()
    wait(lambda: len(listed_programs(url)) == 2, "lunch deleted")
    # Said, and taken back with Undo: the list as it was.
    wait(lambda: field("programs-said-text").text == "Deleted “lunch”." and field("programs-undo").is_displayed(), "the deletion said")
    field("programs-undo").click()
    wait(lambda: [p["name"] for p in listed_programs(url)][2:] == ["lunch"], "lunch back after Undo")
    wait(lambda: field("programs-said-text").text == "“lunch” is back.", "the undo said")


def notify_check():
    """The notify form: a notification sent, listed as showing, then dismissed."""
    url = sys.argv[2].rstrip("/")
    driver, field = opened(url, section="notify")
    try:
        wait(lambda: field("notify-zone").get_attribute("innerHTML").count("<option") >= 2, "the zones in the notify form")
        field("notify-text").send_keys("Doorbell")
        field("notify-seconds").clear()
        field("notify-seconds").send_keys("30")
        field("notify-send").click()
        listed = wait(lambda: json.loads(api(url, "/api/notify"))["notifications"], "the notification in /api/notify")
        assert listed[0]["messages"] == ["Doorbell"] and listed[0]["zone"] is None, "sent %r" % listed
        assert listed[0]["duration"] == 30 and listed[0]["in"] is None, "sent %r" % listed
        wait(lambda: "Doorbell" in field("notify-list").text and "showing" in field("notify-list").text, "the notification listed")
        wait(lambda: "Notification: Doorbell" in field("sentence").text, "the status card to name the notification")
        # Its own dismiss, named for it.
        own = driver.find_element(By.CSS_SELECTOR, "#notify-list button.dismiss")
        assert own.get_attribute("aria-label") == "Dismiss Doorbell", own.get_attribute("aria-label")
        own.click()
        wait(lambda: json.loads(api(url, "/api/notify"))["notifications"] == [], "the first dismissal")
        # Passes, effects in and out, and waking: what the form sends is what the sign queues.
        wait(lambda: len(Select(field("notify-in")).options) > 5, "the effects in the notify form")
        field("notify-text").send_keys("Train cancelled")
        Select(field("notify-length")).select_by_value("passes")
        field("notify-seconds").clear()
        field("notify-seconds").send_keys("3")
        Select(field("notify-in")).select_by_value("wipe-right")
        Select(field("notify-out")).select_by_value("fade")
        field("notify-wake").click()
        # What the form sends, read at the page's door (wake is not in the listing).
        driver.execute_script("""window.sentNotifications = [];
          const send = window.fetch;
          window.fetch = (path, init) => {
            if (path === '/api/notify' && init && init.method === 'POST') window.sentNotifications.push(JSON.parse(init.body));
            return send(path, init);
          };""")
        field("notify-send").click()
        listed = wait(lambda: json.loads(api(url, "/api/notify"))["notifications"], "the second notification")
        sent = listed[0]
        assert sent["messages"] == ["Train cancelled"] and sent["passes"] == 3, "sent %r" % sent
        assert sent["in"] == "wipe-right" and sent["out"] == "fade", "sent %r" % sent
        wait(lambda: "3 passes" in field("notify-list").text, "the passes listed")
        body = driver.execute_script("return window.sentNotifications[window.sentNotifications.length - 1];")
        assert body["wake"] is True and body["passes"] == 3 and body["in"] == "wipe-right", "sent %r" % body
        # An empty one is refused by the page itself.
        field("notify-send").click()
        wait(lambda: "Type the notification first" in field("notify-status").text, "the page's refusal")
        field("notify-dismiss").click()
        wait(lambda: json.loads(api(url, "/api/notify"))["notifications"] == [], "the dismissal")
        wait(lambda: "Doorbell" not in field("notify-list").text, "the list emptied")
        # A second tap on Send while the first is on its way sends nothing more (it would
        # queue the notification twice): the POST is held here until both taps are made.
        field("notify-text").send_keys("Door open")
        tapped_twice_while_held(driver, "/api/notify", field("notify-send"), field("notify-send"), "a second tap sent the notification again")
        listed = wait(lambda: json.loads(api(url, "/api/notify"))["notifications"], "the held notification")
        wait(lambda: field("notify-text").get_attribute("value") == "", "the form emptied")
        assert [n["messages"] for n in json.loads(api(url, "/api/notify"))["notifications"]] == [["Door open"]], "queued %r" % listed
        print("page ok: a notification sent from the page, listed, and dismissed")
    finally:
        driver.quit()


def language_check():
    """The page in Simplified Chinese for a browser set to Chinese, in English for one set to
    English, and the switch between them remembered across a reload."""
    url = sys.argv[2].rstrip("/")
    text = lambda driver, name: driver.find_element(By.ID, name).text
    driver = browser("zh-CN")
    try:
        driver.get(url + "/")
        wait(lambda: driver.execute_script("return document.documentElement.lang") == "zh-CN", "the page in Chinese")
        assert text(driver, "pause") == "暂停", "buttons: %r" % text(driver, "pause")
        tabs = [tab.text for tab in driver.find_elements(By.CSS_SELECTOR, "#tabs a")]
        assert tabs == ["现在", "内容", "节目", "定时", "通知", "设置"], "tabs %r" % tabs
        go(driver, "content")
        assert text(driver, "send") == "显示", "buttons: %r" % text(driver, "send")
        assert "区域" in driver.find_element(By.CSS_SELECTOR, "#compose label").text
        effects = lambda: driver.execute_script("return [...document.getElementById('effect').options].map((o) => [o.value, o.text]);")
        wait(lambda: any("新文字向上推出旧文字" in text for _, text in effects()), "the effects' summaries in Chinese")
        # Effects by their Chinese names; what the page sends stays the sign's identifier.
        assert ["scroll-up", "上推 — 新文字向上推出旧文字"] in [list(pair) for pair in effects()], effects()[:3]
        go(driver, "programs")
        driver.find_element(By.ID, "new-program").click()
        wait(lambda: "周一" in text(driver, "program-days"), "the days in Chinese")
        assert "时段" in driver.find_element(By.ID, "program-editor").text
        # The sign's refusal: its field as the sign wrote it, what is wrong in Chinese.
        driver.find_element(By.ID, "program-name").send_keys("lunch")
        driver.execute_script("document.getElementById('program-date-from').value = '2026-12-26';"
                              "document.getElementById('program-date-to').value = '2026-12-24';")
        driver.find_element(By.ID, "program-messages").send_keys("Soup")
        driver.find_element(By.ID, "program-save").click()
        message = wait(lambda: text(driver, "editor-status"), "the refusal")
        assert message == '节目「lunch」·日期：结束日期 2026-12-24 早于开始日期 2026-12-26', "refusal %r" % message
        assert driver.find_element(By.ID, "program-date-from").get_attribute("aria-invalid") == "true", "the dates are not marked"
        driver.find_element(By.ID, "program-cancel").click()
        # A notification sent: listed in Chinese, its words as typed.
        api(url, "/api/notify", body={"messages": ["Order 42 / 42号"], "duration": 30})
        go(driver, "notify")
        wait(lambda: "正在显示" in text(driver, "notify-list") and "Order 42 / 42号" in text(driver, "notify-list"), "the list in Chinese")
        driver.find_element(By.ID, "notify-send").click()
        wait(lambda: text(driver, "notify-status") == "请先输入通知内容。", "the page's refusal in Chinese")
        # The control panel's parts in Chinese too: the power button, a draft's preview, the
        # night hours (a refusal at its field, its reason in Chinese), the week, the status.
        assert text(driver, "power-word") == "电源已开", "panel %r" % text(driver, "power-word")
        go(driver, "settings")
        assert "状态" in driver.find_element(By.ID, "settings").text and "版本" in text(driver, "status-list")
        go(driver, "schedule")
        assert "夜间亮度与休息时段" in driver.find_element(By.ID, "schedule").text
        driver.find_element(By.ID, "add-brightness").click()
        at = driver.find_element(By.CSS_SELECTOR, '#brightness-rules select[data-field="brightness[0].at"]')
        Select(at).select_by_value("sunset")
        driver.find_element(By.ID, "night-save").click()
        said = wait(lambda: text(driver, "night-status"), "the night refusal")
        assert said == '第 1 条亮度规则·时间：日落时间需要显示屏的位置（纬度和经度）：请在下方填写', "refusal %r" % said
        go(driver, "content")
        assert text(driver, "preview") == "预览"
        driver.find_element(By.ID, "preview").click()
        wait(lambda: driver.find_element(By.ID, "draft-box").is_displayed() and "草稿" in text(driver, "draft-box"), "the draft's note in Chinese")
        # The switch: English, and still English after a reload.
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait(lambda: text(driver, "send") == "Show", "the switch to English")
        go(driver, "notify")
        assert "showing" in text(driver, "notify-list")
        go(driver, "content")
        driver.refresh()
        wait(lambda: text(driver, "send") == "Show" and driver.execute_script("return document.documentElement.lang") == "en",
             "English remembered after a reload")
    finally:
        driver.quit()
    driver = browser("en-US")
    try:
        driver.get(url + "/#content")
        wait(lambda: text(driver, "send") == "Show", "the page in English")
        Select(driver.find_element(By.ID, "lang")).select_by_value("zh")
        driver.refresh()
        wait(lambda: text(driver, "send") == "显示", "Chinese remembered after a reload")
    finally:
        driver.quit()
    print("page ok: Chinese and English, chosen from the browser and by the switch, remembered")


def preview_check():
    """A draft previewed: the sign draws it as a GIF the page shows, and the sign changes
    only when Show is pressed, to exactly what was previewed."""
    url = sys.argv[2].rstrip("/")
    for width, language in ((390, "zh-CN"), (1280, "en-US")):
        preview_once(url, width, language, "Draft %d" % width)
    print("page ok: a draft previewed as the sign draws it, the sign unchanged until Show, in Chinese on a phone and English on a desktop")


def preview_once(url, width, language, draft):
    driver, field = opened(url, language=language, width=width, section="content")
    try:
        wait(lambda: field("zone").get_attribute("innerHTML").count("<option") >= 1, "the zones in the form")
        before = json.loads(api(url, "/api/state"))["zones"][0]["messages"]
        field("messages").clear()
        field("messages").send_keys(draft)
        driver.execute_script("""window.sent = [];
          const send = window.fetch;
          window.fetch = (path, init) => {
            if (init && init.body) window.sent.push([path, JSON.parse(init.body)]);
            return send(path, init);
          };""")
        field("preview").click()
        wait(lambda: field("draft-box").is_displayed() and driver.execute_script(
            "const i = document.getElementById('draft'); return i.complete && i.naturalWidth > 0;"), "the draft's GIF shown")
        width = driver.execute_script("return document.getElementById('draft').naturalWidth;")
        state = json.loads(api(url, "/api/state"))
        assert width >= state["width"], "the GIF is %d pixels wide" % width
        # Previewing changed nothing on the sign (the GIF is drawn and answered before this).
        assert json.loads(api(url, "/api/state"))["zones"][0]["messages"] == before, "the preview changed the sign"
        field("send").click()
        wait(lambda: json.loads(api(url, "/api/state"))["zones"][0]["messages"] == [draft], "Show to put the draft on the sign")
        confirmed = "已上屏，一直保持到下次更改。" if language == "zh-CN" else "On the sign now, until it is changed."
        wait(lambda: field("status").text == confirmed, "the page to confirm what is on the sign (%r)" % field("status").text)
        # Until a time of day, picked: the sign holds it until then and the page says so.
        Select(field("hold")).select_by_value("time")
        wait(lambda: field("hold-until").is_displayed(), "the time picker")
        driver.execute_script("document.getElementById('hold-until').value = '23:59';")
        field("messages").clear()
        field("messages").send_keys(draft + " later")
        field("send").click()
        wait(lambda: (json.loads(api(url, "/api/state"))["zones"][0]["why"]["until"] or {}).get("local", "").endswith("23:59"), "held until 23:59")
        confirmed = "已上屏，保持到 23:59。" if language == "zh-CN" else "On the sign now, until 23:59."
        wait(lambda: field("status").text == confirmed, "the page to say until when (%r)" % field("status").text)
        sent = driver.execute_script("return window.sent;")
        assert sent[0][0].startswith("/api/preview") and sent[1][0] == "/api/content", "sent %r" % sent
        assert sent[0][1] == sent[1][1], "Show sent %r, the preview drew %r" % (sent[1][1], sent[0][1])
        wait(lambda: not field("draft-box").is_displayed(), "the draft put away once shown")
    finally:
        driver.quit()


def panel_check():
    """The control panel: the power button turns the sign off (the API and the preview
    agree it is dark) and on again; the status names the version, the clock and the state
    file; the manifest makes the page installable. At phone and desktop widths."""
    url, version = sys.argv[2].rstrip("/"), sys.argv[3]
    for width, language in ((390, "zh-CN"), (1280, "en-US")):
        chinese = language == "zh-CN"
        driver, field = opened(url, language=language, width=width)
        try:
            wait(lambda: field("power").is_displayed() and field("power").get_attribute("aria-checked") == "true", "the power switch at %d px" % width)
            field("power").click()
            wait(lambda: json.loads(api(url, "/api/state"))["on"] is False, "the sign turned off")
            dark = "熄灭：已关闭" if chinese else "Dark: turned off"
            wait(lambda: field("power").get_attribute("aria-checked") == "false" and field("sentence").text == dark, "the page to say it is dark")
            wait(lambda: (canvas_frame(driver) or "#").count("#") == 0, "the preview dark")
            gone = "显示屏已熄灭" if chinese else "The sign is dark"
            assert field("sign").get_attribute("aria-label") == gone, "the preview's words %r" % field("sign").get_attribute("aria-label")
            field("power").click()
            wait(lambda: json.loads(api(url, "/api/state"))["on"] is True, "the sign turned on")
            wait(lambda: field("power").get_attribute("aria-checked") == "true", "the switch back on")
            # A person's message: the line under the preview says it is theirs, until changed
            # (a sign without programs), from the state's why.
            patch = urllib.request.Request(url + "/api/content", data=json.dumps({"messages": ["Lit %d" % width]}).encode(),
                                           headers={"Content-Type": "application/json"}, method="PATCH")
            urllib.request.urlopen(patch, timeout=10).read()
            said = "您发布的内容一直保持" if chinese else "your message, until changed"
            wait(lambda: said in field("sentence").text, "the status card to say whose message shows")
            shows = ("显示屏正在显示：" if chinese else "The sign shows: ") + "Lit %d" % width
            wait(lambda: field("sign").get_attribute("aria-label") == shows, "the preview's text alternative")
            go(driver, "settings")
            status = wait(lambda: field("status-list").text, "the status")
            words = ("保存的更改", "时钟") if chinese else ("Saved changes", "Clock")
            assert version in status and all(word in status for word in words), "status %r" % status
            manifest = driver.execute_script("return document.querySelector('link[rel=manifest]').href;")
            assert manifest.endswith("/manifest.webmanifest"), manifest
            with urllib.request.urlopen(manifest, timeout=10) as response:
                assert json.loads(response.read().decode())["start_url"] == "/"
        finally:
            driver.quit()
    print("page ok: power off and on from the page, the status, installable, in Chinese on a phone and English on a desktop")


def week_check():
    """The week table shows, row for row, what `marquee schedule` prints (its lines in
    SCHEDULE-TEXT-FILE, the header dropped): the same days, times and programs, in Chinese
    on a phone and in English on a desktop."""
    url, path = sys.argv[2].rstrip("/"), sys.argv[3]
    with open(path, encoding="utf-8") as handle:
        printed = [line for line in handle.read().splitlines()[1:] if line.strip()]
    for width, language in ((390, "zh-CN"), (1280, "en-US")):
        driver, field = opened(url, language=language, width=width, section="programs")
        try:
            rows = lambda: driver.execute_script(
                "return [...document.querySelectorAll('#week-table tr')].map((r) => [...r.cells].map((c) => c.textContent));")
            wait(lambda: len(rows()) == len(printed), "the week's %d rows (%d shown)" % (len(printed), len(rows())))
            for row, line in zip(rows(), printed):
                words = line.split()
                # "Mon 2026-12-07 09:00  program day": the date, the time, and the program's name.
                assert row[0].endswith(words[1][5:]) and row[1] == words[2], "row %r for %r" % (row, line)
                for word in words[3:]:
                    if word.strip(",") in ("program", "programs", "brightness", "on", "off", "(default)", "take", "turns", "clocks", "go", "forward", "back", "from", "to"):
                        continue
                    assert word.strip(",") in row[2], "row %r for %r" % (row, line)
            if language == "zh-CN":
                assert "一周节目表" in field("week").text, "the week's title in Chinese"
            # The week as bars: a day each, the weekday program on the weekdays' bars, dark in the off hours.
            bars = driver.execute_script("""return [...document.querySelectorAll('#week-bars .day-bar')].map((row) =>
                [...row.querySelectorAll('.bar span')].map((piece) => piece.dataset.program));""")
            assert len(bars) == 7, "%d bars" % len(bars)
            assert sum(1 for day in bars if "weekday" in day) == 5, "weekday on %r" % bars
            assert all("" in day for day in bars), "no dark hours in %r" % bars
        finally:
            driver.quit()
    print("page ok: the week table is what marquee schedule prints, %d rows, in Chinese and English" % len(printed))

def icons_check():
    """The icon picker: every icon the sign offers, drawn with the sign's own pixels; a tap
    puts {icon:NAME} at the cursor, and Show puts it on the sign."""
    url = sys.argv[2].rstrip("/")
    icons = json.loads(api(url, "/api/icons"))
    # The list is names and sizes; each picture is fetched on its own.
    for icon in icons:
        icon["picture"] = json.loads(api(url, "/api/icons/" + urllib.parse.quote(icon["name"])))
    for width, language, index in ((390, "zh-CN", 0), (1280, "en-US", 1)):
        icons_once(url, icons, width, language, icons[index]["name"])
    print("page ok: %d icons drawn as the sign draws them, put on the sign, in Chinese on a phone and English on a desktop" % len(icons))


def icons_once(url, icons, width, language, name):
    driver, field = opened(url, language=language, width=width, section="content")
    try:
        wait(lambda: field("zone").get_attribute("innerHTML").count("<option") >= 1, "the form")
        driver.find_element(By.CSS_SELECTOR, "#icon-picker summary").click()
        buttons = lambda: driver.find_elements(By.CSS_SELECTOR, "#icon-grid button")
        wait(lambda: len(buttons()) == len(icons), "all %d icons in the picker" % len(icons))
        drawn = lambda: len(driver.find_elements(By.CSS_SELECTOR, "#icon-grid canvas[data-drawn]"))
        wait(lambda: drawn() == len(icons), "all %d pictures drawn" % len(icons))
        # Each picture is the sign's: its lit dots are the bits the API gives.
        lit = driver.execute_script("""
          return [...document.querySelectorAll('#icon-grid canvas')].map((c) => {
            const g = c.getContext('2d'), data = g.getImageData(0, 0, c.width, c.height).data;
            let count = 0;
            for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] < 100) count++;
            return count;
          });""")
        for icon, pixels in zip(icons, lit):
            bits = sum(bin(int(row, 16)).count("1") for row in icon["picture"]["rows"])
            assert (bits == 0) == (pixels == 0), "icon %s: %d bits, %d red pixels" % (icon["name"], bits, pixels)
        field("messages").clear()
        field("messages").send_keys("Next ")
        driver.find_element(By.CSS_SELECTOR, "#icon-grid button[data-icon='%s']" % name).click()
        value = field("messages").get_attribute("value")
        assert value == "Next {icon:%s}" % name, "the messages read %r" % value
        field("send").click()
        wait(lambda: json.loads(api(url, "/api/state"))["zones"][0]["messages"] == [value], "the icon on the sign")
    finally:
        driver.quit()


def night_check():
    """Night and off hours from the page. On a phone, in Chinese: a sunset rule without the
    sign's location is refused at its field, its reason translated; with the location it is
    kept, and off hours too, as the API reads them back. On a desktop, in English: the form
    shows what was kept, a level out of range is refused at its field, and a good one kept."""
    url = sys.argv[2].rstrip("/")
    driver, field = opened(url, language="zh-CN", width=390, section="schedule")
    rule = lambda key: driver.find_element(By.CSS_SELECTOR, '#brightness-rules [data-field="brightness[0].%s"]' % key)
    try:
        wait(lambda: field("night-form").get_attribute("data-loaded") == "1", "the night form filled from the sign")
        field("add-brightness").click()
        # Sunset is a choice, its offset and level numbers.
        Select(rule("at")).select_by_value("sunset")
        for key, value in (("offset", "-15"), ("level", "3")):
            rule(key).clear()
            rule(key).send_keys(value)
        field("night-save").click()
        said = wait(lambda: field("night-status").text, "the sign's refusal")
        assert said == "第 1 条亮度规则·时间：日落时间需要显示屏的位置（纬度和经度）：请在下方填写", "said %r" % said
        assert rule("at").get_attribute("aria-invalid") == "true", "the field is not marked"
        field("latitude").send_keys("39.9")
        field("longitude").send_keys("116.4")
        field("add-off").click()
        field("night-save").click()
        wait(lambda: field("night-status").text.startswith("已保存"), "the save")
        schedule = json.loads(api(url, "/api/schedule"))["schedule"]
        assert schedule["brightness"] == [{"at": "sunset", "offset": -15, "level": 3}], "brightness %r" % schedule["brightness"]
        assert schedule["off"] == [{"times": ["23:00-07:00"]}], "off %r" % schedule["off"]
        assert schedule["location"] == {"latitude": 39.9, "longitude": 116.4}, "location %r" % schedule.get("location")
    finally:
        driver.quit()
    driver, field = opened(url, language="en-US", width=1280, section="schedule")
    try:
        # What the sign keeps is what the page shows.
        wait(lambda: field("night-form").get_attribute("data-loaded") == "1", "the night form filled again")
        assert rule("at").get_attribute("value") == "sunset" and field("latitude").get_attribute("value") == "39.9", "the form after a reload"
        rule("level").clear()
        rule("level").send_keys("99")
        field("night-save").click()
        said = wait(lambda: field("night-status").text, "the sign's refusal")
        assert said == "brightness rule 1, level: 99 is out of range (0 to 15)", "said %r" % said
        assert rule("level").get_attribute("aria-invalid") == "true", "the level is not marked"
        rule("level").clear()
        rule("level").send_keys("5")
        field("night-save").click()
        wait(lambda: field("night-status").text.startswith("Saved"), "the save")
        assert json.loads(api(url, "/api/schedule"))["schedule"]["brightness"][0]["level"] == 5
    finally:
        driver.quit()
    print("page ok: night brightness, off hours and the location set from the page, refused at the field first, in Chinese and English")

def zones_check():
    """A sign of two zones ("left" showing L, "right" showing R): both outlined on the
    preview and named under it; a tap on the right half edits "right"."""
    url = sys.argv[2].rstrip("/")
    for width, language in ((390, "zh-CN"), (1280, "en-US")):
        driver, field = opened(url, language=language, width=width, section="content")
        try:
            chips = lambda: [chip.text for chip in driver.find_elements(By.CSS_SELECTOR, "#zone-chips button")]
            wait(lambda: chips() == ["left", "right"], "the zones named under the preview")
            wait(lambda: canvas_frame(driver), "the preview")
            # The outline between the zones: blue at the border, off the dots' centres.
            blue = lambda: driver.execute_script("""
              const c = document.getElementById('sign'), scale = c.width / 64, g = c.getContext('2d');
              const p = g.getImageData(Math.floor(32 * scale), Math.floor(c.height / 2), 1, 1).data;
              return p[2] > 90 && p[2] > p[0] + 30;""")
            wait(blue, "an outline at the zones' border")
            canvas = field("sign")
            # Selenium's offsets are from the element's centre: a quarter of its width right.
            webdriver.ActionChains(driver).move_to_element_with_offset(canvas, canvas.size["width"] // 4, 0).click().perform()
            wait(lambda: field("zone").get_attribute("value") == "right", "the tap to select the right zone")
            assert field("messages").get_attribute("value") == "R", "the form shows %r" % field("messages").get_attribute("value")
            pressed = driver.find_element(By.CSS_SELECTOR, '#zone-chips button[data-zone="right"]').get_attribute("aria-pressed")
            assert pressed == "true", "the chip is not marked"
            driver.find_element(By.CSS_SELECTOR, '#zone-chips button[data-zone="left"]').click()
            wait(lambda: field("messages").get_attribute("value") == "L", "the chip to select the left zone")
        finally:
            driver.quit()
    print("page ok: zones outlined and named, selected by a tap on the preview or by name")


def draft_check():
    """What a person typed and has not shown stays: through a change made elsewhere, and
    when the sign goes away (the page says the connection is lost and keeps trying)."""
    import os
    import signal as signals
    url, pid = sys.argv[2].rstrip("/"), int(sys.argv[3])
    driver, field = opened(url, section="content")
    try:
        wait(lambda: driver.execute_script("return typeof state === 'object' && state !== null;"), "the sign's state")
        field("messages").clear()
        field("messages").send_keys("Typed, not shown")
        field("speed").click()
        request = urllib.request.Request(url + "/api/content", data=json.dumps({"messages": ["From elsewhere"]}).encode(),
                                         headers={"Content-Type": "application/json"}, method="PATCH")
        urllib.request.urlopen(request, timeout=10).read()
        wait(lambda: driver.execute_script("return state.zones[0].messages[0];") == "From elsewhere", "the change to reach the page")
        assert field("messages").get_attribute("value") == "Typed, not shown", "the draft was replaced"
        os.kill(pid, signals.SIGTERM)
        wait(lambda: field("lost").is_displayed() and "Lost the sign" in field("lost").text, "the page to say the connection is lost")
        greyed = driver.execute_script("return getComputedStyle(document.getElementById('sign')).filter;")
        assert "grayscale" in greyed, "the preview is not greyed: %r" % greyed
        assert field("messages").get_attribute("value") == "Typed, not shown", "the draft was lost with the connection"
        print("page ok: a draft kept through a change from elsewhere and a lost connection, which the page says and greys")
    finally:
        driver.quit()


SECTIONS = ["now", "content", "programs", "schedule", "notify", "settings"]

# What a person can tap that is smaller than 44x44 CSS pixels (a checkbox counts as its
# label, which takes the tap), and how far the page slides sideways.
MEASURE = """
  const small = [];
  for (const e of document.querySelectorAll('button, select, input, textarea, summary, a[href]')) {
    const shown = e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    if (!shown) continue;
    const box = (e.type === 'checkbox' ? e.closest('label') : e).getBoundingClientRect();
    if (box.width < 44 || box.height < 44) small.push((e.id || e.dataset.tab || e.className || e.tagName) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
  }
  const scroller = document.getElementById('scroll');
  return {overflow: Math.max(document.documentElement.scrollWidth - document.documentElement.clientWidth, scroller.scrollWidth - scroller.clientWidth), small: small,
          sentence: document.getElementById('sentence').textContent, current: document.body.dataset.section,
          marked: [...document.querySelectorAll('#tabs a[aria-current=page]')].map((a) => a.dataset.tab)};"""


# The elements that reach past the right edge of the page, widest first: what makes it slide.
WIDEST = """
  const edge = document.documentElement.clientWidth, found = [];
  for (const e of document.querySelectorAll('body *')) {
    const box = e.getBoundingClientRect();
    if (box.width > 0 && box.right > edge + 0.5) found.push([Math.round(box.right - edge), e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '')]);
  }
  return found.sort((a, b) => b[0] - a[0]).slice(0, 6);"""


def phone_check():
    """The page as a phone app: every section, at its own address, at 320, 390 and 430 px and
    on a desktop, in Chinese and English, fits the width (nothing slides sideways), has
    nothing to tap smaller than 44x44 px, and says what the sign does in one sentence."""
    url, sentence_zh, sentence_en = sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
    seen = 0
    for language in ("zh-CN", "en-US"):
        expected = sentence_zh if language == "zh-CN" else sentence_en
        for width in (320, 390, 430, 1280):
            # Opened at a section's address (a bookmark), then each section by its tab.
            driver, field = opened(url, language=language, width=width, section="settings")
            try:
                wait(lambda: driver.execute_script("return document.body.dataset.section") == "settings", "the bookmarked section")
                wait(lambda: expected in field("sentence").text, "the sentence %r at %d px in %s (it reads %r)" % (
                    expected, width, language, field("sentence").text))
                wait(lambda: field("status-list").text, "the status")
                wait(lambda: driver.execute_script("return document.querySelectorAll('#week-table tr').length") > 0, "the week")
                for section in SECTIONS:
                    go(driver, section)
                    assert driver.execute_script("return location.hash") == "#" + section, "the address of " + section
                    seen_now = driver.execute_script(MEASURE)
                    where = "%s at %d px in %s" % (section, width, language)
                    assert seen_now["marked"] == [section], "%s: tabs marked %r" % (where, seen_now["marked"])
                    assert expected in seen_now["sentence"], "%s: the sentence reads %r" % (where, seen_now["sentence"])
                    assert seen_now["overflow"] <= 0, "%s: the page slides %d px sideways" % (where, seen_now["overflow"])
                    assert not seen_now["small"], "%s: too small to tap: %r" % (where, seen_now["small"])
                    seen += 1
            finally:
                driver.quit()
    print("page ok: %d views (6 sections, 4 widths, 2 languages) fit, nothing under 44 px, the sentence in each" % seen)


def accessibility_check():
    """axe-core (axe-selenium-python) finds no violation in any section, on a phone in
    Chinese and on a desktop in English."""
    from axe_selenium_python import Axe
    url = sys.argv[2].rstrip("/")
    found = []
    for width, language in ((390, "zh-CN"), (1280, "en-US")):
        driver, field = opened(url, language=language, width=width)
        try:
            wait(lambda: canvas_frame(driver) and field("sentence").text, "the page filled")
            axe = Axe(driver)
            axe.inject()
            for section in SECTIONS:
                go(driver, section)
                for violation in axe.run()["violations"]:
                    found.append("%s at %d px, %s: %s (%s) at %s" % (section, width, language, violation["id"], violation["impact"],
                                                                    [node["target"] for node in violation["nodes"]][:3]))
        finally:
            driver.quit()
    assert not found, "axe-core: " + "; ".join(found)
    print("page ok: axe-core finds no violation in the six sections, in Chinese on a phone and English on a desktop")


def screenshots():
    """The page on a phone (390 px, Chinese: the Now, Content and Programs sections) and on a
    desktop (1280 px, English), for Docs."""
    import os
    url, folder = sys.argv[2].rstrip("/"), sys.argv[3]
    shots = (("phone", 390, "zh-CN", "now"), ("phone-content", 390, "zh-CN", "content"),
             ("phone-programs", 390, "zh-CN", "programs"), ("desktop", 1280, "en-US", "now"))
    for name, width, language, section in shots:
        driver, field = opened(url, language=language, width=width, section=section)
        try:
            wait(lambda: canvas_frame(driver) and field("sentence").text, "the page filled")
            if section == "programs":
                wait(lambda: driver.execute_script("return document.querySelectorAll('#week-table tr').length") > 0, "the week")
            time.sleep(1)
            height = driver.execute_script("return document.getElementById('scroll').scrollHeight + document.getElementById('tabs').offsetHeight;")
            driver.set_window_size(width, height + 120)
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(folder, "serve-page-%s.png" % name))
        finally:
            driver.quit()
    print("page ok: screenshots in %s" % folder)


def upload_check():
    """An icon added from the page: the picture chosen, named, sent with the token; the
    picker shows it and the API lists it."""
    url, token, picture = sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
    driver = browser()
    try:
        driver.get(url + "/#content")
        # The sign asks for its token: the page asks the person once.
        asked = wait(lambda: prompt(driver), "the page to ask for the token")
        asked.send_keys(token)
        asked.accept()
        field = lambda name: driver.find_element(By.ID, name)
        driver.find_element(By.CSS_SELECTOR, "#icon-picker summary").click()
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#icon-grid button")) > 30, "the icons")
        field("icon-file").send_keys(picture)
        # Named in the owner's language.
        field("icon-name").send_keys("门铃")
        field("icon-upload").click()
        wait(lambda: field("icon-status").text == "Added: 门铃", "the page to say it was added (%r)" % field("icon-status").text)
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#icon-grid button[data-icon='门铃']"), "the new icon in the picker")
        request = urllib.request.Request(url + "/api/icons", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert any(icon["name"] == "门铃" for icon in json.loads(response.read().decode())), "not listed"
        print("page ok: an icon named in Chinese added from the page, shown in the picker and listed")
    finally:
        driver.quit()


# The finder's questions come from a debug build in the tests, which weighs every height of
# the panel's width in seconds (a fifth of a second in the release build): on a loaded
# machine a step may take far longer than the page's other waits.
FINDER_SECONDS = 180


def finder_check():
    """The panel finder from the page, on a phone, in Chinese, on a sign that emulates a
    panel that is direct in rows and columns and RGB: the page shows each question and the
    emulated panel's picture as the API gives them, and the answers a person gives looking
    at such a panel (the test's, `;`-separated: a choice's answer, or the numbers seen)
    are the buttons and ticks the page offers; at the end the sign says the board file is
    written, and the file holds what was found."""
    url, path, answers = sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4].split(";")
    # The panels are two, the second above the first and upside down: the chain test's
    # answer is typed.
    driver, field = opened(url, language="zh-CN", width=390, section="settings")
    try:
        wait(lambda: field("finder").is_displayed(), "the panel finder under Settings")
        from axe_selenium_python import Axe
        axe = Axe(driver)
        axe.inject()
        field("finder-go").click()
        wait(lambda: json.loads(api(url, "/api/panel-finder"))["running"], "the finder to start", FINDER_SECONDS)
        steps = 0
        while True:
            question = json.loads(api(url, "/api/panel-finder"))
            if not question["running"]:
                break
            asked = " ".join(question["question"].split())
            wait(lambda: " ".join(field("finder-q").text.split()).endswith(asked), "the page to ask %r" % asked, FINDER_SECONDS)
            # The picture is the API's drawing, a dot per LED.
            lit = sum(len(row) - row.count(".") for row in question["drawing"])
            shown = driver.execute_script("""
              const c = document.getElementById('finder-pic'), data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
              let count = 0;
              for (let y = 1; y < c.height; y += 4) for (let x = 1; x < c.width; x += 4) { const i = (y * c.width + x) * 4; if (data[i] + data[i + 1] + data[i + 2] > 300) count++; }
              return count;""")
            assert shown == lit, "step %d: the canvas lights %d dots, the drawing %d" % (steps + 1, shown, lit)
            # Every kind of question (buttons, numbers to tick, a typed answer) as accessible as the rest.
            violations = ["%s (%s)" % (v["id"], v["impact"]) for v in axe.run()["violations"]]
            assert not violations, "step %d: axe-core: %s" % (steps + 1, violations)
            buttons = driver.find_elements(By.CSS_SELECTOR, "#finder-a button")
            labels = [b.text for b in buttons]
            choices = question["choices"]
            assert labels[: len(choices)] == [c["label"] for c in choices], "buttons %r for choices %r" % (labels, choices)
            answer = answers[steps]
            if question["typed"]:
                driver.find_element(By.CSS_SELECTOR, "#finder-a input:not([type=checkbox])").send_keys(answer)
                buttons[0].click()
            elif question["pick"]:
                boxes = driver.find_elements(By.CSS_SELECTOR, "#finder-a input[type=checkbox]")
                assert len(boxes) == question["pick"], "%d boxes for %d numbers" % (len(boxes), question["pick"])
                for number in answer.split():
                    if number != "0":
                        boxes[int(number) - 1].click()
                buttons[0].click()
            elif steps == 0:
                # While the sign works out the next question (seconds on a Pi) the finder
                # takes no second tap, which would answer the question after it: the
                # finder's requests are held here until both taps are made.
                first = buttons[[c["answer"] for c in choices].index(answer)]
                tapped_twice_while_held(
                    driver, "/api/panel-finder", first, buttons[-2], "a second tap sent a second answer",
                    lambda: driver.execute_script("return document.getElementById('finder').inert"))
            else:
                buttons[[c["answer"] for c in choices].index(answer)].click()
            steps += 1
            wait(lambda: json.loads(api(url, "/api/panel-finder")) != question, "the answer taken", FINDER_SECONDS)
            assert steps < 20, "no end after 20 answers"
        wait(lambda: "招牌已改用新设置" in field("finder-q").text, "the page to say the board file is written, not %r" % field("finder-q").text, FINDER_SECONDS)
        with open(path) as file:
            board = json.load(file)
        assert (board["rowAddress"], board["multiplexing"]) == ("direct", "direct"), "the board file: %r" % board
        assert board.get("pixelMapper") == sys.argv[5], "the board file's pixelMapper: %r" % board.get("pixelMapper")
        assert field("finder-go").is_displayed(), "the start button back"
    finally:
        driver.quit()
    print("page ok: the finder asked %d questions in Chinese on a phone, drew each picture, axe-core found no violation, and the board file was written" % steps)


def main():
    if sys.argv[1] == "--finder":
        return finder_check()
    if sys.argv[1] == "--walk":
        return walk_check()
    if sys.argv[1] == "--upload":
        return upload_check()
    if sys.argv[1] == "--screenshots":
        return screenshots()
    if sys.argv[1] == "--phone":
        return phone_check()
    if sys.argv[1] == "--accessibility":
        return accessibility_check()
    if sys.argv[1] == "--draft":
        return draft_check()
    if sys.argv[1] == "--zones":
        return zones_check()
    if sys.argv[1] == "--night":
        return night_check()
    if sys.argv[1] == "--sources":
        return sources_check()
    if sys.argv[1] == "--icons":
        return icons_check()
    if sys.argv[1] == "--week":
        return week_check()
    if sys.argv[1] == "--panel":
        return panel_check()
    if sys.argv[1] == "--preview":
        return preview_check()
    if sys.argv[1] == "--language":
        return language_check()
    if sys.argv[1] == "--notify":
        return notify_check()
    if sys.argv[1] == "--token":
        return token_check()
    if sys.argv[1] == "--programs":
        return programs_check()
    url = sys.argv[1].rstrip("/")
    driver = browser()
    try:
        driver.get(url + "/#content")
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


def walk_check():
    """The ten tasks of an owner, one after another on one sign, at one width in one language,
    as a person does them: change, preview and publish a message; mistakes (an empty message,
    5,000 characters, 25:00 in a time picker, a brightness level of 20); off hours and dimming
    at sunset; the power; a weekend program; an icon added from the phone; a notification and
    its own dismissal; and a restart of the sign, which the page rides out by itself. After
    each, what the owner sees: nothing slides sideways, nothing to tap under 44 px, the
    sentence, the confirmation or the error at its field, and the LEDs through /api/frame.
    The sign is this script's own (`marquee serve` with a config, a state file, a token and an
    icon folder), so it can be restarted on the same port."""
    import os
    import re
    import socket
    import subprocess
    binary, folder, language, width, picture = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
    chinese = language.startswith("zh")
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    url = "http://127.0.0.1:%d" % port
    token_path = os.path.join(folder, "token")
    arguments = [binary, "serve", "--listen", "127.0.0.1:%d" % port, "--config", os.path.join(folder, "sign.json"),
                 "--state", os.path.join(folder, "sign.state"), "--token-file", token_path, "--icons", os.path.join(folder, "icons"),
                 "--output", "ascii"]

    def start():
        sign = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: os.path.exists(token_path) and reachable(), "the sign to listen")
        return sign

    def reachable():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    sign = start()
    token = open(token_path).read().strip()
    call = lambda path, body=None: json.loads(api(url, path, token, body))

    def frame():
        request = urllib.request.Request(url + "/api/frame", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read().decode().strip(), response.headers.get("X-Sign-On")

    driver, field = opened(url, language=language, width=width, section="content")
    done = []

    def looked(task):
        """What the owner sees after a task, in the section it left the page in."""
        # The page as it settles: a list being rebuilt may be wider for a moment.
        settled = lambda: driver.execute_script(MEASURE)["overflow"] <= 0
        try:
            wait(settled, "the page to settle", seconds=3)
        except AssertionError:
            pass
        seen = driver.execute_script(MEASURE)
        where = "%s at %d px in %s" % (task, width, language)
        assert seen["overflow"] <= 0, "%s: the page slides %d px sideways (past the edge: %r)" % (
            where, seen["overflow"], driver.execute_script(WIDEST))
        assert not seen["small"], "%s: too small to tap: %r" % (where, seen["small"])
        assert seen["sentence"].strip(), "%s: no sentence" % where
        if chinese:
            assert re.search("[\u4e00-\u9fff]", seen["sentence"]), "%s: the sentence is not in Chinese: %r" % (where, seen["sentence"])
        done.append(task)

    def leds_match():
        shown = canvas_frame(driver) or ""
        expected, _ = frame()
        return shown[: len(expected)] == expected

    try:
        asked = wait(lambda: prompt(driver), "the page to ask for the token")
        asked.send_keys(token)
        asked.accept()
        wait(lambda: canvas_frame(driver) and field("sentence").text, "the page filled")

        # 1. Change, preview and publish.
        text = "今日新鲜面包 Fresh bread"
        before, _ = frame()
        field("messages").clear()
        field("messages").send_keys(text)
        field("preview").click()
        wait(lambda: driver.execute_script("const i = document.getElementById('draft'); return i.complete && i.naturalWidth > 0;")
             and field("draft-box").is_displayed(), "the preview")
        assert frame()[0] == before, "a preview changed the LEDs"
        field("send").click()
        wait(lambda: "ok" in field("status").get_attribute("class") and field("status").text, "the confirmation")
        wait(lambda: call("/api/state")["zones"][0]["messages"] == [text], "the message on the sign")
        wait(lambda: frame()[0] != before and leds_match(), "the LEDs (and the page's picture of them) to show it")
        looked("publish")

        # 2. Mistakes: an empty message is refused at its field and changes nothing; 5,000
        # characters are taken and scroll; what was typed is never lost.
        field("messages").clear()
        field("send").click()
        wait(lambda: field("messages").get_attribute("aria-invalid") == "true" and field("status").text, "the empty message refused at its field")
        assert "ok" not in field("status").get_attribute("class"), "an empty message was confirmed"
        assert call("/api/state")["zones"][0]["messages"] == [text], "an empty message changed the sign"
        long_text = ("0123456789" * 500)
        driver.execute_script("const m = document.getElementById('messages'); m.value = arguments[0]; m.dispatchEvent(new Event('input'));", long_text)
        field("send").click()
        wait(lambda: call("/api/state")["zones"][0]["messages"] == [long_text], "5,000 characters on the sign")
        assert field("messages").get_attribute("aria-invalid") != "true", "the field stays marked after a good change"
        looked("5,000 characters")
        field("messages").clear()
        field("messages").send_keys(text)
        field("send").click()
        wait(lambda: call("/api/state")["zones"][0]["messages"] == [text], "the message back")

        # 3. Off hours and dimming at sunset, from pickers and choices; 25:00 cannot be
        # picked, and a level of 20 is refused at its field.
        go(driver, "schedule")
        wait(lambda: field("night-form").get_attribute("data-loaded") == "1", "the night form")
        field("add-off").click()
        start_picker = driver.find_element(By.CSS_SELECTOR, '#off-periods [data-field="off[0].times"]')
        start_picker.send_keys("2500")
        picked = start_picker.get_attribute("value")
        assert picked == "" or re.match("^([01][0-9]|2[0-3]):[0-5][0-9]$", picked), "a time picker holds %r" % picked
        # Dark for an hour half a day from now, so the rest of the walk runs lit.
        hour = (time.localtime().tm_hour + 12) % 24
        dark = ("%02d:00" % hour, "%02d:00" % ((hour + 1) % 24))
        driver.execute_script("for (const i of document.querySelectorAll('#off-periods [data-field=\"off[0].times\"]')) "
                              "i.value = i.dataset.key === 'from' ? arguments[0] : arguments[1];", dark[0], dark[1])
        field("add-brightness").click()
        rule = lambda key: driver.find_element(By.CSS_SELECTOR, '#brightness-rules [data-field="brightness[0].%s"]' % key)
        Select(rule("at")).select_by_value("sunset")
        rule("offset").clear()
        rule("offset").send_keys("-15")
        rule("level").clear()
        rule("level").send_keys("20")
        field("latitude").send_keys("39.9")
        field("longitude").send_keys("116.4")
        field("night-save").click()
        wait(lambda: rule("level").get_attribute("aria-invalid") == "true" and field("night-status").text, "a level of 20 refused at its field")
        assert "20" in field("night-status").text, "the refusal %r" % field("night-status").text
        rule("level").clear()
        rule("level").send_keys("4")
        field("night-save").click()
        wait(lambda: field("night-status").text.startswith("已保存" if chinese else "Saved"), "the schedule saved (%r)" % field("night-status").text)
        schedule = call("/api/schedule")["schedule"]
        assert schedule["brightness"] == [{"at": "sunset", "offset": -15, "level": 4}], "brightness %r" % schedule["brightness"]
        assert schedule["off"] == [{"times": ["%s-%s" % dark]}], "off %r" % schedule["off"]
        looked("off hours and sunset")

        # 4. The power: off, the LEDs dark and the page saying so; on again.
        go(driver, "now")
        sentence_on = field("sentence").text
        field("power").click()
        wait(lambda: call("/api/state")["on"] is False and frame()[1] == "false", "the sign off")
        wait(lambda: field("sentence").text != sentence_on, "the sentence to say the sign is off")
        looked("power off")
        field("power").click()
        wait(lambda: call("/api/state")["on"] is True and frame()[1] == "true", "the sign on again")

        # 5. A weekend program, with day chips and time pickers.
        go(driver, "programs")
        field("new-program").click()
        wait(lambda: field("program-editor").is_displayed(), "the editor")
        field("program-name").send_keys("weekend")
        for box in driver.find_elements(By.CSS_SELECTOR, "#program-days input"):
            if box.get_attribute("value") in ("sat", "sun"):
                box.click()
        set_times(driver, [("10:00", "16:00")])
        field("program-messages").send_keys("周末市集 Weekend market")
        field("program-save").click()
        wait(lambda: any(p["name"] == "weekend" for p in call("/api/programs")["programs"]), "the program saved")
        weekend = [p for p in call("/api/programs")["programs"] if p["name"] == "weekend"][0]
        assert weekend["days"] == ["sat", "sun"] and weekend["times"] == ["10:00-16:00"], "saved %r" % weekend
        wait(lambda: not field("program-editor").is_displayed(), "the editor to close")
        wait(lambda: driver.execute_script("return document.querySelector('#program-list li[data-name=\"weekend\"]') !== null;"), "the program listed")
        looked("weekend program")

        # 6. An icon from the phone, named in any language.
        go(driver, "content")
        driver.find_element(By.CSS_SELECTOR, "#icon-picker summary").click()
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#icon-grid button")) > 30, "the icons")
        field("icon-file").send_keys(picture)
        field("icon-name").send_keys("门铃")
        field("icon-upload").click()
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#icon-grid button[data-icon='门铃']"), "the new icon in the picker")
        assert any(icon["name"] == "门铃" for icon in call("/api/icons")), "the icon is not listed"
        looked("icon")

        # 7. A notification, and its own dismissal.
        go(driver, "notify")
        field("notify-text").send_keys("取餐 42 Order 42")
        field("notify-seconds").clear()
        field("notify-seconds").send_keys("60")
        field("notify-send").click()
        wait(lambda: len(call("/api/notify")["notifications"]) == 1, "the notification queued")
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#notify-list li button.dismiss"), "its own dismiss button")
        looked("notification")
        driver.find_element(By.CSS_SELECTOR, "#notify-list li button.dismiss").click()
        wait(lambda: call("/api/notify")["notifications"] == [], "the notification dismissed")

        # 8. A restart: the page says it lost the sign, greys the picture, and comes back by
        # itself; what the owner published is still on the sign.
        go(driver, "now")
        sign.terminate()
        sign.wait(timeout=20)
        wait(lambda: field("lost").is_displayed(), "the page to say it lost the sign")
        assert "grayscale" in driver.execute_script("return getComputedStyle(document.getElementById('sign')).filter;"), "not greyed"
        sign = start()
        wait(lambda: not field("lost").is_displayed(), "the page to find the sign again by itself", seconds=30)
        assert call("/api/state")["zones"][0]["messages"] == [text], "the published message after the restart"
        assert any(p["name"] == "weekend" for p in call("/api/programs")["programs"]), "the program after the restart"
        wait(lambda: leds_match(), "the page's picture of the LEDs after the restart")
        looked("restart")
        print("page ok: the owner's tasks (%s) at %d px in %s" % (", ".join(done), width, language))
    finally:
        driver.quit()
        sign.terminate()
        try:
            sign.wait(timeout=20)
        except subprocess.TimeoutExpired:
            sign.kill()


def sources_check():
    """The data sources (数据源) under Settings: each source's items, when it was fetched and
    when next, and a failing source's error, in Chinese on a phone and English on a desktop."""
    url = sys.argv[2].rstrip("/")
    wait(lambda: all(s["lastSuccess"] or s["lastError"] for s in json.loads(api(url, "/api/state"))["sources"]), "every source fetched once")
    for width, language, title, failed in ((390, "zh-CN", "数据源", "出错："), (1280, "en-US", "Data sources", "error: ")):
        driver, field = opened(url, language=language, width=width, section="settings")
        try:
            wait(lambda: field("sources").is_displayed(), "the sources' section")
            assert title in field("sources").text, "the title %r in %r" % (title, field("sources").text)
            items = lambda: [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#source-list li")]
            wait(lambda: len(items()) == 2, "a line per source")
            weather, gone = items()
            assert weather.startswith("weather") and "3.2°C" in weather, weather
            assert gone.startswith("gone") and failed in gone and "404" in gone, gone
            warned = driver.find_elements(By.CSS_SELECTOR, "#source-list li.warning")
            assert [item.text for item in warned] == [gone], "only the failing source is marked"
        finally:
            driver.quit()
    print("page ok: the data sources' items and errors under Settings, in Chinese on a phone and English on a desktop")


def serve():
    """Runs the checks read from standard input, one a line, in the shared browser."""
    program = sys.argv[0]
    for line in sys.stdin:
        sys.argv = [program] + json.loads(line)
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            try:
                main()
                status = 0
            except AssertionError as error:
                print("page failed: %s" % error)
                status = 1
            except Exception:
                # The browser may be broken: the next check gets a new one.
                print("page broke: %s" % traceback.format_exc())
                discard()
                status = 2
        sys.stdout.write(json.dumps({"status": status, "output": said.getvalue()}) + "\n")
        sys.stdout.flush()
    discard()


SERVING = len(sys.argv) > 1 and sys.argv[1] == "--serve"

if __name__ == "__main__":
    if SERVING:
        serve()
        sys.exit(0)
    try:
        main()
    except AssertionError as error:
        print("page failed: %s" % error)
        sys.exit(1)
