"use strict";
const $ = (id) => document.getElementById(id);

// The page's words in English and Simplified Chinese. The language comes from the
// browser's, or from the switch at the top, which is remembered; what a person types
// (messages, names) and the sign's identifiers (effect names, JSON keys) are never translated.
const WORDS = {
  en: {
    "dark-off": "Dark: turned off", "dark-hours": "Dark: off hours until {0}", "dark-hours-open": "Dark: off hours", "turn-on": "Turn on", "turn-off": "Turn off", "playing-program": "Playing: {0}", "notification-showing": "Notification: {0}", "why-person": "your message until {0}", "why-person-open": "your message, until changed", "why-feed": "a feed's content", "stale-zones": "No fresh data: {0}",
    sign: "the sign", zone: "Zone", messages: "Messages, one per line", mode: "Mode", auto: "auto", scroll: "scroll",
    cycle: "cycle", "pages-mode": "pages", reads: "Reads", ltr: "left to right", rtl: "right to left", effect: "Effect", speed: "Speed (px/s)", brightness: "Brightness", show: "Show", preview: "Preview", "draft-note": "Draft: not on the sign until you press Show", pause: "Pause",
    resume: "Resume", token: "Enter the token", "notify-title": "Notify",
    notification: "Notification (interrupts, then the sign goes on)", where: "Where", "whole-sign": "whole sign",
    for: "For", seconds: "seconds", passes: "passes", "how-many": "How many", priority: "Priority", in: "In", out: "Out",
    cut: "cut", wake: "Wake the sign if it is off", notify: "Notify", "dismiss-all": "Dismiss all", programs: "Programs",
    "new-program": "New program", name: "Name", days: "Days (none: every day)",
    times: "When in the day (none: all day)", "add-time": "Add a time", "time-from": "From", "time-to": "to",
    dates: "Dates (empty: every week)", "date-from": "From", "date-to": "through", turn: "Turn",
    default: "Plays when no other is due (default)", save: "Save program", delete: "Delete", cancel: "Cancel",
    "token-prompt": "This sign needs its token:", "token-refused": "The sign did not accept the token.",
    "token-needed": "This sign needs its token.", "connection-ended": "the connection ended",
    showing: "showing", waiting: "waiting", "passes-n": "{0} passes", "seconds-n": "{0} s",
    "type-first": "Type the notification first.", edit: "Edit", playing: "playing", "default-word": "default",
    kept: "Kept as they are: {0}",
    icons: "Icons", "icon-insert": "Insert {0}", "icon-file": "A picture (PNG, GIF, PBM, XBM)", "icon-name": "Its name",
    "icon-upload": "Add the icon", "icon-added": "Added: {0}",
    "night-title": "Night and off hours", "brightness-rules": "Brightness through the day", "add-rule": "Add a time",
    "off-periods": "Off hours (dark)", "add-off": "Add off hours", location: "Where the sign is (for sunrise and sunset)",
    latitude: "Latitude", longitude: "Longitude", at: "When", "at-time": "at a time", sunrise: "at sunrise", sunset: "at sunset", time: "Time",
    offset: "Minutes after (− before)", level: "Level (0-15)",
    "off-from": "Dark from", "off-to": "until", "off-days": "Days (none: every day)", "off-date-from": "Dates: from (empty: every week)", "off-date-to": "through",
    "off-more": "Also dark: {0} (kept as they are)",
    "rule-n": "brightness rule {0}", "off-n": "off hours {0}", "program-named": "program “{0}”", "program-n": "program {0}", "field-at": "when",
    "field-offset": "minutes", "field-level": "level", "field-times": "times", "field-days": "days", "field-dates": "dates",
    "field-latitude": "latitude", "field-longitude": "longitude", "field-name": "name", "field-messages": "messages",
    "field-seconds": "seconds", "field-passes": "passes", "field-mode": "mode", "field-default": "default", "field-priority": "priority",
    remove: "Remove", "save-night": "Save", "night-saved": "Saved: the sign follows it from now on.",
    "week-title": "The week ahead", "week-on": "on", "week-off": "off (dark)", "week-program": "program {0}", "week-default": "program {0} (default)",
    "week-turns": "programs {0} take turns", "week-brightness": "brightness {0}", "week-forward": "clocks go forward from {0} to {1}",
    "week-back": "clocks go back from {0} to {1}",
    "finder-title": "Panel settings", "finder-go": "Find the panel's settings", "finder-send": "Send", "sources-title": "Data sources", "source-items": "{0}: {1}", "source-none": "{0}: nothing fetched yet",
    "source-when": "fetched {0}, next {1}", "source-error": "error: {0}", "source-stale": "stale: its fallback shows",
    "status-title": "Status", version: "Version", uptime: "Running for", "size-board": "Size and board", "clock": "Clock",
    "clock-set": "set", "clock-unset": "not set yet (no network time)", "state-file": "Saved changes", "state-none": "not kept (no --state)",
    "state-ok": "kept in {0}", "state-bad": "problem: {0}", mqtt: "MQTT", "mqtt-none": "not used", "mqtt-up": "connected to {0}",
    "mqtt-down": "not connected to {0}: {1}", "no-board": "terminal or simulator",
    mon: "mon", tue: "tue", wed: "wed", thu: "thu", fri: "fri", sat: "sat", sun: "sun",
    dismiss: "Dismiss", "dismiss-one": "Dismiss {0}", "edit-named": "Edit {0}", undo: "Undo",
    overlaps: "Due at the same time as {0}: they take turns", "program-priority": "Priority when programs overlap",
    "program-draft-note": "As the program plays: not on the sign", "program-draft-alt": "Preview of program {0}: {1}",
    "priority-normal": "0: take turns", "priority-level": "{0}: plays alone over lower ones", "priority-n": "priority {0}", hold: "How long it stays", "hold-program": "until this program ends", "hold-always": "until I change it", "hold-time": "until a time", "hold-until": "Until",
    "shown-until": "On the sign now, until {0}.", "shown-open": "On the sign now, until it is changed.",
    "shown-program": "On the sign now, until the program “{0}” ends at {1}.",
    "saved-program": "Saved “{0}”.", "deleted-program": "Deleted “{0}”.", "restored-program": "“{0}” is back.", card: "What the sign shows", sections: "Sections", "tab-now": "Now", "tab-content": "Content", "tab-programs": "Programs",
    "tab-schedule": "Hours", "tab-notify": "Notify", "tab-settings": "Settings", power: "Power", "power-on": "Power is on", "power-off": "Power is off",
    "next-title": "What changes next", "upcoming-none": "Nothing changes in the next 7 days.",
    "playing-quoted": "Playing “{0}”", "showing-quoted": "Showing “{0}”", "next-program": "{0} “{1}” starts", "next-turns": "{0} {1} take turns",
    "next-dark": "{0} dark", "next-on": "{0} lights up", "next-level": "{0} brightness {1}", "until-time": "until {0}",
    lost: "Lost the sign ({0}): trying again. What shows may be old.", "sign-shows": "The sign shows: {0}", "sign-dark": "The sign is dark",
    "day-today": "", "day-tomorrow": "tomorrow",
  },
  zh: {
    "dark-off": "熄灭：已关闭", "dark-hours": "熄灭：休息时段，至 {0}", "dark-hours-open": "熄灭：休息时段", "turn-on": "开启", "turn-off": "关闭", "playing-program": "正在播放：{0}", "notification-showing": "通知：{0}", "why-person": "您发布的内容保持到 {0}", "why-person-open": "您发布的内容一直保持", "why-feed": "数据源推送的内容", "stale-zones": "数据未更新：{0}",
    sign: "显示屏", zone: "区域", messages: "消息（每行一条）", mode: "模式", auto: "自动", scroll: "滚动", cycle: "轮播", "pages-mode": "翻页", reads: "书写方向", ltr: "从左到右", rtl: "从右到左",
    effect: "特效", speed: "速度（像素/秒）", brightness: "亮度", show: "显示", preview: "预览", "draft-note": "草稿：按“显示”后才会上屏", pause: "暂停", resume: "继续",
    token: "输入访问令牌", "notify-title": "通知", notification: "通知（插播，结束后恢复原内容）", where: "位置",
    "whole-sign": "整屏", for: "按", seconds: "秒", passes: "遍", "how-many": "数量", priority: "优先级", in: "进入特效",
    out: "退出特效", cut: "直接切换", wake: "关屏时段也点亮显示", notify: "发送通知", "dismiss-all": "全部撤销",
    programs: "节目", "new-program": "新建节目", name: "名称", days: "星期（不选则每天）",
    times: "每天的时段（不加则全天）", "add-time": "添加时段", "time-from": "从", "time-to": "到",
    dates: "日期（留空则每周）", "date-from": "从", "date-to": "到", turn: "每次播放", default: "没有其他节目时播放（默认节目）",
    save: "保存节目", delete: "删除", cancel: "取消", "token-prompt": "此显示屏需要访问令牌：",
    "token-refused": "显示屏不接受此令牌。", "token-needed": "此显示屏需要访问令牌。",
    "connection-ended": "连接已断开", showing: "正在显示", waiting: "等待中", "passes-n": "{0} 遍",
    "seconds-n": "{0} 秒", "type-first": "请先输入通知内容。", edit: "编辑", playing: "正在播放", "default-word": "默认",
    kept: "保持不变：{0}", mon: "周一", tue: "周二", wed: "周三", thu: "周四", fri: "周五", sat: "周六", sun: "周日",
    icons: "图标", "icon-insert": "插入 {0}", "icon-file": "图片（PNG、GIF、PBM、XBM）", "icon-name": "名称",
    "icon-upload": "添加图标", "icon-added": "已添加：{0}",
    "night-title": "夜间亮度与休息时段", "brightness-rules": "全天亮度", "add-rule": "添加时间点",
    "off-periods": "休息时段（熄灭）", "add-off": "添加休息时段", location: "显示屏位置（用于日出日落）",
    latitude: "纬度", longitude: "经度", at: "何时", "at-time": "固定时间", sunrise: "日出时", sunset: "日落时", time: "时间",
    offset: "推后分钟（负数为提前）", level: "亮度（0-15）",
    "off-from": "熄灭时间", "off-to": "到", "off-days": "星期（不选则每天）", "off-date-from": "日期：从（留空则每周）", "off-date-to": "到",
    "off-more": "另外熄灭：{0}（保持不变）",
    "rule-n": "第 {0} 条亮度规则", "off-n": "第 {0} 段休息时段", "program-named": "节目「{0}」", "program-n": "第 {0} 个节目", "field-at": "时间",
    "field-offset": "分钟", "field-level": "亮度", "field-times": "时段", "field-days": "星期", "field-dates": "日期",
    "field-latitude": "纬度", "field-longitude": "经度", "field-name": "名称", "field-messages": "消息",
    "field-seconds": "秒数", "field-passes": "遍数", "field-mode": "模式", "field-default": "默认", "field-priority": "优先级",
    remove: "删除", "save-night": "保存", "night-saved": "已保存：显示屏从现在起照此运行。",
    "week-title": "一周节目表", "week-on": "开启", "week-off": "熄灭", "week-program": "节目 {0}", "week-default": "节目 {0}（默认）",
    "week-turns": "节目 {0} 轮流播放", "week-brightness": "亮度 {0}", "week-forward": "时钟从 {0} 拨快到 {1}",
    "week-back": "时钟从 {0} 拨回到 {1}",
    "finder-title": "面板设置", "finder-go": "查找面板设置", "finder-send": "提交", "sources-title": "数据源", "source-items": "{0}：{1}", "source-none": "{0}：尚未取到数据",
    "source-when": "{0} 取得，下次 {1}", "source-error": "出错：{0}", "source-stale": "数据过期，显示备用内容",
    "status-title": "状态", version: "版本", uptime: "已运行", "size-board": "尺寸与控制板", "clock": "时钟",
    "clock-set": "已同步", "clock-unset": "尚未同步（无网络时间）", "state-file": "保存的更改", "state-none": "不保存（未加 --state）",
    "state-ok": "保存在 {0}", "state-bad": "出现问题：{0}", mqtt: "MQTT", "mqtt-none": "未使用", "mqtt-up": "已连接 {0}",
    "mqtt-down": "未连接 {0}：{1}", "no-board": "终端或模拟器",
    dismiss: "撤销", "dismiss-one": "撤销「{0}」", "edit-named": "编辑「{0}」", undo: "撤回",
    overlaps: "与「{0}」时段重叠：轮流播放", "program-priority": "时段重叠时的优先级",
    "program-draft-note": "节目播放时的样子：尚未上屏", "program-draft-alt": "节目「{0}」预览：{1}",
    "priority-normal": "0：轮流播放", "priority-level": "{0}：盖过较低的，单独播放", "priority-n": "优先级 {0}", hold: "保持多久", "hold-program": "只到本节目结束", "hold-always": "一直保持，直到我更改", "hold-time": "到某个时间", "hold-until": "到",
    "shown-until": "已上屏，保持到 {0}。", "shown-open": "已上屏，一直保持到下次更改。",
    "shown-program": "已上屏，保持到节目「{0}」在 {1} 结束。",
    "saved-program": "已保存「{0}」。", "deleted-program": "已删除「{0}」。", "restored-program": "「{0}」已恢复。", card: "显示屏现在的样子", sections: "栏目", "tab-now": "现在", "tab-content": "内容", "tab-programs": "节目",
    "tab-schedule": "定时", "tab-notify": "通知", "tab-settings": "设置", power: "电源", "power-on": "电源已开", "power-off": "电源已关",
    "next-title": "接下来的变化", "upcoming-none": "未来 7 天没有变化。",
    "playing-quoted": "正在播放「{0}」", "showing-quoted": "正在显示「{0}」", "next-program": "{0} 换成「{1}」", "next-turns": "{0} {1} 轮流播放",
    "next-dark": "{0} 熄灭", "next-on": "{0} 点亮", "next-level": "{0} 亮度调到 {1}", "until-time": "保持到 {0}",
    lost: "与显示屏的连接中断（{0}），正在重连。画面可能不是最新的。", "sign-shows": "显示屏正在显示：{0}", "sign-dark": "显示屏已熄灭",
    "day-today": "", "day-tomorrow": "明天",
  },
};
// The effects' names in Chinese, as the page shows them (the sign's own names are what it sends).
const EFFECT_NAMES_ZH = {
  print: "直接切换", "scroll-up": "上推", "scroll-down": "下推", "scroll-left": "左推", "scroll-right": "右推",
  "scroll-up-left": "左上推", "scroll-up-right": "右上推", "scroll-down-left": "左下推", "scroll-down-right": "右下推",
  fade: "淡入淡出", "cross-fade": "溶解", random: "随机点现", "zoom-in": "放大", "zoom-out": "缩小", "scale-fade-in": "放大溶入",
  "scale-fade-out": "缩小溶出", "wipe-right": "向右擦除", "wipe-left": "向左擦除", "wipe-cursor-right": "光条右扫",
  "wipe-cursor-left": "光条左扫", opening: "中间展开", "opening-cursor": "光条展开", closing: "两端合拢", "closing-cursor": "光条合拢",
  blinds: "百叶窗", mesh: "交错滑入", slice: "逐列滑入", "scan-horizontal": "横向扫描", "scan-horizontal-x": "横向反扫",
  "scan-vertical": "纵向扫描", "scan-vertical-x": "纵向反扫", "grow-up": "向上生长", "grow-down": "向下生长", sprite: "小精灵",
};
// An effect as the page names it: its Chinese name in Chinese, the sign's name in English.
function effectName(name) { return language === "zh" ? (EFFECT_NAMES_ZH[name] || name) : name; }
// The effects' summaries in Chinese.
const EFFECTS_ZH = {
  print: "直接切换：新文字在中途立即出现", "scroll-up": "新文字向上推出旧文字", "scroll-down": "新文字向下推出旧文字",
  "scroll-left": "新文字向左推出旧文字", "scroll-right": "新文字向右推出旧文字", "scroll-up-left": "新文字向左上推出旧文字",
  "scroll-up-right": "新文字向右上推出旧文字", "scroll-down-left": "新文字向左下推出旧文字",
  "scroll-down-right": "新文字向右下推出旧文字", fade: "旧文字渐暗，新文字渐亮", "cross-fade": "像素按固定抖动顺序溶解为新文字",
  random: "新文字的像素按随机顺序出现", "zoom-in": "新文字从一半大小放大到原大", "zoom-out": "旧文字放大离开，新文字缩小就位",
  "scale-fade-in": "放大并溶入", "scale-fade-out": "缩小并溶出", "wipe-right": "向右擦除，逐列显示新文字",
  "wipe-left": "向左擦除，逐列显示新文字", "wipe-cursor-right": "亮条向右扫过，旧文字变为新文字",
  "wipe-cursor-left": "亮条向左扫过，旧文字变为新文字", opening: "新文字从中间向两边展开",
  "opening-cursor": "亮条从中间向两边移动，展开新文字", closing: "新文字从两端向中间合拢",
  "closing-cursor": "亮条从两端向中间移动，合拢成新文字", blinds: "百叶窗：条纹合上再打开成新文字",
  mesh: "相间的列分别从上方和下方滑入", slice: "各列逐一从右侧滑入", "scan-horizontal": "一列亮线横扫，然后显示全部文字",
  "scan-horizontal-x": "一列空白横扫过文字", "scan-vertical": "一行亮线向下扫，然后显示全部文字",
  "scan-vertical-x": "一行空白向下扫过文字", "grow-up": "新文字从底部逐行长出", "grow-down": "新文字从顶部逐行长出",
  sprite: "小精灵走过，露出后面的文字",
};
// The sign's refusals in Chinese: the field path stays as the sign wrote it (scripts and
// the docs name fields so), what is wrong with it is said in Chinese; a refusal this list
// does not know is shown as the sign gave it.
const ERRORS_ZH = [
  [/^(-?[\d.]+) is out of range \((.+) to (.+)\)$/, "$1 超出范围（$2 到 $3）"],
  [/^expected a number from (.+) to (.+), got (.+)$/, "应为 $1 到 $2 之间的数，收到 $3"],
  [/^expected a whole number from (.+) to (.+), got (.+)$/, "应为 $1 到 $2 之间的整数，收到 $3"],
  [/^expected true or false, got (.+)$/, "应为 true 或 false，收到 $1"],
  [/^expected a string, got (.+)$/, "应为文字，收到 $1"],
  [/^expected an array of strings, got (.+)$/, "应为文字列表，收到 $1"],
  [/^missing \(it is required\)$/, "缺少（必填）"],
  [/^unknown field \(known: (.+)\)$/, "未知字段（可用：$1）"],
  [/^no zone named '(.+)' \(zones: (.+)\)$/, "没有名为 '$1' 的区域（区域：$2）"],
  [/^no program named '(.+)'$/, "没有名为 '$1' 的节目"],
  [/^'(.*)' cannot name an icon: .*$/, "'$1' 不能作图标名称：请用任何语言的文字（拉丁字母用小写）、数字、'-' 和 '_'，最多 64 字节"],
  [/^'(.+)' is a built-in icon; give yours another name$/, "'$1' 是内置图标，请换一个名称"],
  [/^two programs are named '(.+)'$/, "有两个节目都叫 '$1'"],
  [/^more than one program is the default$/, "默认节目不止一个"],
  [/^(sunrise|sunset) needs the sign's "location" \(latitude and longitude\)$/, (m, which) =>
    (which === "sunrise" ? "日出" : "日落") + "时间需要显示屏的位置（纬度和经度）：请在下方填写"],
  [/^expected HH:MM, "sunrise" or "sunset", got "(.*)"$/, "应为 HH:MM、\"sunrise\" 或 \"sunset\"，收到 \"$1\""],
  [/^a program's name must be non-empty and without '\/'$/, "节目名称不能为空，也不能含 '/'"],
  [/^expected HH:MM-HH:MM \(24-hour\), got (.+)$/, "应为 HH:MM-HH:MM（24 小时制），收到 $1"],
  [/^the last date, (.+), is before the first, (.+)$/, "结束日期 $1 早于开始日期 $2"],
  [/^expected FIRST\/LAST as YYYY-MM-DD\/YYYY-MM-DD, got (.+)$/, "应为 YYYY-MM-DD/YYYY-MM-DD（开始/结束），收到 $1"],
  [/^expected one of mon, tue, wed, thu, fri, sat, sun, got (.+)$/, "应为 mon、tue、wed、thu、fri、sat、sun 之一，收到 $1"],
  [/^give 'seconds' or 'passes', not both$/, "'seconds' 和 'passes' 只能给一个"],
  [/^applies in cycle mode only: add "mode": "cycle"$/, "只用于轮播模式：请加上 \"mode\": \"cycle\""],
  [/^no icon named '(.+?)'(?: \(did you mean (.+)\?\))?; 'marquee icons' lists them$/, (m, name, near) =>
    "没有名为 '" + name + "' 的图标" + (near ? "（是不是 " + near + "？）" : "") + "；'marquee icons' 列出所有图标"],
];
// The field a refusal names (`brightness[0].at`, `programs[2].times[0]`), and the refusal
// split into it and its reason.
function refusalParts(text) {
  const at = text.search(/: /);
  const field = at > 0 && !/\s/.test(text.slice(0, at)) ? text.slice(0, at) : null;
  return { field: field, reason: field ? text.slice(at + 2) : text };
}
// A field's path in an owner's words: "brightness[1].at" is "第 2 条亮度规则·时间".
function fieldWords(path) {
  const parts = [];
  for (const piece of path.split(".")) {
    const match = /^([a-zA-Z]+)(?:\[(\d+)\])?(?:\[(\d+)\])?$/.exec(piece);
    if (!match) { parts.push(piece); continue; }
    const [, key, index] = match;
    if (key === "brightness" && index !== undefined) parts.push(t("rule-n", Number(index) + 1));
    else if (key === "off" && index !== undefined) parts.push(t("off-n", Number(index) + 1));
    else if (key === "programs" && index !== undefined) {
      const list = programsSent || programs;
      const named = list[Number(index)] && list[Number(index)].name;
      parts.push(named ? t("program-named", named) : t("program-n", Number(index) + 1));
    } else if (key === "location") continue;
    else parts.push(WORDS.en["field-" + key] ? t("field-" + key) : key);
  }
  return parts.join(language === "zh" ? "·" : ", ");
}
function signError(text) {
  const { field, reason } = refusalParts(text);
  let said = reason;
  if (language === "zh") {
    for (const [pattern, chinese] of ERRORS_ZH) {
      if (pattern.test(reason)) { said = reason.replace(pattern, chinese); break; }
    }
  }
  return field ? fieldWords(field) + (language === "zh" ? "：" : ": ") + said : said;
}
let language = localStorage.getItem("marquee-lang")
  || ((navigator.languages || [navigator.language || ""]).some((l) => /^zh/i.test(l)) ? "zh" : "en");
let effectList = [];
// A word of the page in its language, with {0} filled in.
function t(key, ...values) {
  const text = (WORDS[language] || WORDS.en)[key] || WORDS.en[key] || key;
  return values.reduce((said, value, index) => said.replace("{" + index + "}", value), text);
}
function applyLanguage() {
  document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  $("lang").value = language;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  for (const element of document.querySelectorAll("[data-t-aria]")) element.setAttribute("aria-label", t(element.dataset.tAria));
  fillEffects();
}
// The effect choices: the name, and what it does in the page's language.
function fillEffects() {
  const chosen = $("effect").value;
  $("effect").innerHTML = "";
  for (const e of effectList) {
    const summary = language === "zh" ? (EFFECTS_ZH[e.name] || e.summary) : e.summary;
    $("effect").add(new Option(effectName(e.name) + " — " + summary, e.name));
  }
  if (chosen) $("effect").value = chosen;
  for (const id of ["notify-in", "notify-out"]) {
    const kept = $(id).value;
    $(id).length = 1;
    for (const e of effectList) if (e.name !== "none") $(id).add(new Option(effectName(e.name), e.name));
    $(id).value = kept;
  }
}
$("lang").addEventListener("change", () => {
  language = $("lang").value;
  localStorage.setItem("marquee-lang", language);
  applyLanguage();
  if (state) fillForm();
  loadPrograms();
  loadNotifications();
  loadStatus();
  loadWeek();
});
let token = localStorage.getItem("marquee-token") || "";
let state = null;
let frame = null;
// The token is asked for once; after a wrong one or Cancel, only the button asks again.
let asked = false;
let tokenArrived = null;

function headers(extra) {
  const h = Object.assign({}, extra || {});
  if (token) h["Authorization"] = "Bearer " + token;
  return h;
}

function askToken() {
  const given = prompt(t("token-prompt"));
  if (given === null || given.trim() === "") return false;
  token = given.trim();
  localStorage.setItem("marquee-token", token);
  $("token").hidden = true;
  showCardStatus("");
  if (tokenArrived) { tokenArrived(); tokenArrived = null; }
  return true;
}

function refused() {
  $("token").hidden = false;
  return new Error(token ? t("token-refused") : t("token-needed"));
}

function waitForToken() {
  return new Promise((resolve) => { tokenArrived = resolve; });
}

// One fetch per thing: what the page reads (the schedule, the programs) is asked once for
// each state of the sign, however many parts of the page want it.
let stateSerial = 0, fetchedSerial = 0;
const fetched = new Map();
function once(path) {
  if (fetchedSerial !== stateSerial) {
    fetched.clear();
    fetchedSerial = stateSerial;
  }
  if (!fetched.has(path)) {
    const pending = api(path);
    pending.catch(() => fetched.delete(path));
    fetched.set(path, pending);
  }
  return fetched.get(path);
}

async function api(path, method, body) {
  const init = { method: method || "GET" };
  if (body) init.body = JSON.stringify(body);
  for (;;) {
    init.headers = headers(body ? { "Content-Type": "application/json" } : {});
    const response = await fetch(path, init);
    if (response.status === 401) {
      if (!asked) {
        asked = true;
        if (askToken()) continue;
      }
      throw refused();
    }
    const data = await response.json();
    if (!response.ok) throw refusalError(data, response);
    return data;
  }
}

// A refused request as an error: the sign's words in the page's language, and the field it
// names for the form to mark.
function refusalError(data, response) {
  const error = new Error(signError(data.error || response.statusText));
  error.field = refusalParts(data.error || "").field;
  return error;
}

// A date range as the sign writes it ("FIRST/LAST") from two pickers: one alone is that day.
function datesFrom(first, last) {
  return first || last ? (first || last) + "/" + (last || first) : "";
}
// "FIRST/LAST" back to the two pickers' values.
function datesSplit(text) {
  const [first, last] = (text || "/").split("/");
  return [first || "", last || ""];
}

function showStatus(text) { $("status").textContent = text; }
// What is said for the whole page, in the status card: a refused token, a sign that failed to load.
function showCardStatus(text) { $("card-status").textContent = text; }

function draw() {
  if (!frame) return;
  const canvas = $("sign"), scale = Math.max(4, Math.floor(canvas.clientWidth / frame.width) || 4);
  if (canvas.width !== frame.width * scale) {
    canvas.width = frame.width * scale;
    canvas.height = frame.height * scale;
  }
  const g = canvas.getContext("2d");
  g.fillStyle = "#000";
  g.fillRect(0, 0, canvas.width, canvas.height);
  const level = Math.max(0.25, frame.brightness);
  for (let y = 0; y < frame.height; y++) {
    const row = frame.rows[y];
    for (let x = 0; x < frame.width; x++) {
      const lit = (parseInt(row.substr((x >> 3) * 2, 2), 16) >> (7 - (x & 7))) & 1;
      g.fillStyle = lit ? "rgba(255,48,24," + level + ")" : "#2a2a2a";
      g.beginPath();
      g.arc(x * scale + scale / 2, y * scale + scale / 2, scale * 0.42, 0, 2 * Math.PI);
      g.fill();
    }
  }
  drawZones(g, scale);
  canvas.dataset.frame = frame.rows.join(",");
}

// A sign of several zones: each outlined on the preview (the one being edited brighter),
// named in a row of buttons under it; tapping a zone, on the preview or by name, edits it.
function drawZones(g, scale) {
  if (!state || state.zones.length < 2) return;
  g.lineWidth = 2;
  for (const z of state.zones) {
    g.strokeStyle = z.name === $("zone").value ? "#4af" : "rgba(120,170,255,0.45)";
    g.strokeRect(z.x * scale + 1, z.y * scale + 1, z.width * scale - 2, z.height * scale - 2);
  }
}

function showZoneChips() {
  const chips = $("zone-chips");
  const zones = state ? state.zones : [];
  chips.hidden = zones.length < 2;
  if (chips.dataset.names !== zones.map((z) => z.name).join("\n")) {
    chips.innerHTML = "";
    for (const z of zones) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "quiet chip";
      chip.dataset.zone = z.name;
      chip.textContent = z.name;
      chip.addEventListener("click", () => selectZone(z.name));
      chips.append(chip);
    }
    chips.dataset.names = zones.map((z) => z.name).join("\n");
  }
  for (const chip of chips.children) chip.setAttribute("aria-pressed", String(chip.dataset.zone === $("zone").value));
}

function selectZone(name) {
  $("zone").value = name;
  contentDraft = false;
  fillForm();
}

$("sign").addEventListener("click", (event) => {
  if (!state || !frame || state.zones.length < 2) return;
  const canvas = $("sign"), box = canvas.getBoundingClientRect();
  const x = Math.floor((event.clientX - box.left) / box.width * frame.width), y = Math.floor((event.clientY - box.top) / box.height * frame.height);
  const hit = state.zones.find((z) => x >= z.x && x < z.x + z.width && y >= z.y && y < z.y + z.height);
  if (hit) selectZone(hit.name);
});

// The status card at the top of every section: the preview (greyed with a banner while the
// page has lost the sign), the power switch, the brightness with its number, and one
// sentence in plain words: what plays, why, until when, and what changes next.
// The notification showing now, if one is (GET /api/notify).
let notificationShowing = null;
// The next changes of the week ahead (GET /api/timetable), soonest first.
let upcoming = [];
function showCard() {
  if (!state) return;
  const dark = state.dark;
  const parts = [];
  if (dark) {
    parts.push(dark.reason === "turned off" ? t("dark-off") : dark.until ? t("dark-hours", dark.until.local.slice(-5)) : t("dark-hours-open"));
  } else {
    if (notificationShowing) parts.push(t("notification-showing", notificationShowing.messages.join(" / ")));
    const first = state.zones[0] || {};
    if (state.program) parts.push(t("playing-quoted", state.program));
    else if (first.showing) parts.push(t("showing-quoted", first.showing.join(" / ")));
    // Why the first zone shows what it shows, when it is not the program's (GET /api/state's why).
    const why = first.why;
    if (why && why.layer === "person") parts.push(why.until ? t("why-person", why.until.local.slice(-5)) : t("why-person-open"));
    if (why && why.layer === "feed") parts.push(t("why-feed"));
    const stale = state.zones.filter((z) => z.stale).map((z) => z.name);
    if (stale.length) parts.push(t("stale-zones", stale.join(", ")));
  }
  // What changes next: the first two changes the week ahead holds.
  // (The lighting that ends an off period is said once, by its "until".)
  const next = upcoming.filter((entry) => !(dark && dark.until && entry.on === true && entry.at === dark.until.at && entry.program === undefined));
  for (const entry of next.slice(0, 2)) parts.push(changeWords(entry));
  $("sentence").textContent = parts.join(" · ");
  const on = state.on !== false && !(dark && dark.reason === "turned off");
  $("power").setAttribute("aria-checked", String(on));
  $("power-word").textContent = t(on ? "power-on" : "power-off");
  if (document.activeElement !== $("brightness")) $("brightness").value = state.brightness;
  $("brightness-value").textContent = $("brightness").value;
  // The preview's text alternative: what the LEDs show, in words.
  const shown = state.zones.map((z) => (z.showing || z.messages || []).join(" / ")).filter((w) => w).join(" | ");
  $("sign").setAttribute("aria-label", dark ? t("sign-dark") : t("sign-shows", shown));
}

// One change of the timetable in words: "18:00 换成「evening」", "22:00 熄灭".
function changeWords(entry) {
  const today = new Date(), day = new Date(entry.at * 1000);
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const when = (day.toDateString() === today.toDateString() ? "" : day.toDateString() === tomorrow.toDateString() ? t("day-tomorrow") + " " : t(entry.weekday) + " ") + entry.time;
  if (entry.on === false) return t("next-dark", when);
  if (entry.program) return t("next-program", when, entry.program);
  if (entry.takeTurns) return t("next-turns", when, entry.takeTurns.join("、"));
  if (entry.on === true) return t("next-on", when);
  if (entry.brightness !== undefined) return t("next-level", when, entry.brightness);
  return when;
}

// The page lost the sign (or found it again): the banner, and the preview greyed.
function showLost(reason) {
  $("lost").hidden = reason === null;
  $("lost").textContent = reason === null ? "" : t("lost", reason);
  $("card").classList.toggle("lost", reason !== null);
}

// The sections as an app's tabs, each with an address a bookmark keeps (#now, #content, …).
const SECTIONS = ["now", "content", "programs", "schedule", "notify", "settings"];
function showSection() {
  const wanted = location.hash.slice(1);
  const chosen = SECTIONS.includes(wanted) ? wanted : "now";
  for (const section of document.querySelectorAll("[data-section]")) section.classList.toggle("current", section.dataset.section === chosen);
  for (const tab of document.querySelectorAll("#tabs a")) {
    if (tab.dataset.tab === chosen) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  document.body.dataset.section = chosen;
}
window.addEventListener("hashchange", showSection);

// Whether the content form holds a draft a person typed (until Show, or another zone).
let contentDraft = false;
function fillForm() {
  if (!state) return;
  showCard();
  showZoneChips();
  // The outlines follow the zone being edited, even when the frame does not change.
  draw();
  const zone = $("zone"), chosen = zone.value;
  zone.innerHTML = "";
  for (const z of state.zones) zone.add(new Option(z.name, z.name));
  zone.value = state.zones.some((z) => z.name === chosen) ? chosen : state.zones[0].name;
  const z = state.zones.find((z) => z.name === zone.value);
  // What a person has typed and not yet shown stays: a change from elsewhere, or the
  // connection coming back, does not wipe it.
  if (!contentDraft) {
    $("messages").value = z.messages.join("\n");
    $("mode").value = z.mode;
    $("speed").value = z.speed;
    if (z.textDirection) $("reads").value = z.textDirection;
    if ([...$("effect").options].some((o) => o.value === z.in)) $("effect").value = z.in;
  }
  // "Until this program ends" only while a program plays.
  const untilProgram = $("hold").querySelector('option[value="program"]');
  untilProgram.hidden = untilProgram.disabled = !state.program;
  if (!state.program && $("hold").value === "program") $("hold").value = "always";
  $("hold-time-box").hidden = $("hold").value !== "time";
  showSources();
  const where = $("notify-zone"), place = where.value;
  where.innerHTML = "";
  where.add(new Option(t("whole-sign"), ""));
  for (const z of state.zones) where.add(new Option(z.name, z.name));
  where.value = place;
}

// The live data sources (the state's "sources"): what each gave, when, and its error.
function showSources() {
  const sources = (state && state.sources) || [];
  $("sources").hidden = sources.length === 0;
  const list = $("source-list");
  list.innerHTML = "";
  for (const source of sources) {
    const item = document.createElement("li");
    const lines = [source.items.length ? t("source-items", source.name, source.items.join(" · ")) : t("source-none", source.name)];
    if (source.lastSuccess) lines.push(t("source-when", source.lastSuccess.local.slice(11), source.nextFetch.local.slice(11)));
    if (source.lastError) lines.push(t("source-error", source.lastError));
    if (source.stale) lines.push(t("source-stale"));
    item.textContent = lines.join(" — ");
    if (source.lastError || source.stale) item.className = "warning";
    list.append(item);
  }
}

// The HUB75 panel finder: the sign asks and names the answers; an emulated panel's picture drawn.
const PIXEL = { "#": "#fff", "@": "#fff", R: "#f44", G: "#4f4", B: "#48f" };
function button(text, click) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text; b.onclick = click;
  return b;
}
// Nothing in it answers again while the sign works out the next question (a second tap
// would answer the question after it).
async function finder(method, path, body) {
  let q;
  $("finder").inert = true;
  try { q = await api("/api/panel-finder" + (path || ""), method, body); } catch (error) { if (method) $("finder-q").textContent = error.message; return; } finally { $("finder").inert = false; }
  const a = $("finder-a"), pic = $("finder-pic"), rows = q.drawing || [], boxes = [], answer = (a) => finder("POST", "/answer", { answer: a });
  $("finder").hidden = false;
  $("finder-go").hidden = q.running;
  $("finder-q").textContent = q.running ? [q.look, q.question].join(" ") : q.said || "";
  a.innerHTML = "";
  pic.hidden = !rows.length;
  pic.width = rows.length && rows[0].length * 4; pic.height = rows.length * 4;
  const g = pic.getContext("2d");
  rows.forEach((row, y) => [...row].forEach((c, x) => { g.fillStyle = PIXEL[c] || "#222"; g.fillRect(x * 4, y * 4, 3, 3); }));
  if (q.board && !q.saved) a.append(Object.assign(document.createElement("pre"), { textContent: q.board }));
  if (!q.running) return;
  for (const c of q.choices) a.append(button(c.label, () => answer(c.answer)));
  for (let n = 1; n <= q.pick; n++) {
    const label = document.createElement("label"), box = Object.assign(document.createElement("input"), { type: "checkbox", value: n });
    boxes.push(box); label.append(box, n); a.append(label);
  }
  if (q.pick) a.append(button(t("finder-send"), () => answer(boxes.filter((b) => b.checked).map((b) => +b.value))));
  if (q.typed) {
    const i = document.createElement("input");
    i.setAttribute("aria-labelledby", "finder-q");
    a.append(i, button(t("finder-send"), () => answer(i.value)));
  }
  a.append(button(t("cancel"), () => finder("DELETE")));
}
$("finder-go").onclick = () => finder("POST", "", { lang: language });

// Notifications waiting and showing (GET /api/notify).
async function loadNotifications() {
  let list;
  try { list = (await api("/api/notify")).notifications; } catch (error) { return; }
  notificationShowing = list.find((n) => n.showing) || null;
  showCard();
  const items = $("notify-list");
  items.innerHTML = "";
  for (const n of list) {
    const item = document.createElement("li");
    item.dataset.id = n.id;
    const words = document.createElement("span");
    words.textContent = n.messages.join(" / ") + " · " + (n.zone || t("whole-sign")) + " · "
      + (n.passes ? t("passes-n", n.passes) : t("seconds-n", n.duration)) + " — " + t(n.showing ? "showing" : "waiting");
    // Each notification with its own dismiss.
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "quiet dismiss";
    dismiss.textContent = t("dismiss");
    dismiss.setAttribute("aria-label", t("dismiss-one", n.messages.join(" / ")));
    dismiss.addEventListener("click", async () => {
      try { await api("/api/notify/" + n.id, "DELETE"); } catch (error) { $("notify-status").textContent = error.message; }
      loadNotifications();
    });
    item.append(words, dismiss);
    items.append(item);
  }
}

$("notify").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("notify-text").value.trim();
  if (!text) { $("notify-status").textContent = t("type-first"); return; }
  const notification = { messages: [text], priority: Number($("notify-priority").value) };
  notification[$("notify-length").value] = Number($("notify-seconds").value);
  if ($("notify-zone").value) notification.zone = $("notify-zone").value;
  if ($("notify-in").value) notification.in = $("notify-in").value;
  if ($("notify-out").value) notification.out = $("notify-out").value;
  if ($("notify-wake").checked) notification.wake = true;
  $("notify").inert = true;
  try {
    await api("/api/notify", "POST", notification);
    $("notify-text").value = "";
    $("notify-status").textContent = "";
  } catch (error) { $("notify-status").textContent = error.message; } finally { $("notify").inert = false; }
  loadNotifications();
});
$("notify-dismiss").addEventListener("click", async () => {
  try { await api("/api/notify", "DELETE"); } catch (error) { $("notify-status").textContent = error.message; }
  loadNotifications();
});

async function listen() {
  for (;;) {
    try {
      const response = await fetch("/api/events", { headers: headers() });
      if (response.status === 401) {
        showCardStatus(refused().message);
        await waitForToken();
        continue;
      }
      const reader = response.body.getReader(), decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) type = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (type === "frame") { frame = JSON.parse(data); draw(); showLost(null); }
          else if (type === "state") {
            showLost(null);
            // The first state of a stream is the one the page just loaded: nothing to fetch again.
            const same = state && JSON.stringify(state) === JSON.stringify(JSON.parse(data));
            state = JSON.parse(data);
            fillForm();
            if (!same) { stateSerial++; loadPrograms(); loadNotifications(); loadWeek(); }
          }
        }
      }
      // The stream ended: the sign went away (or restarted).
      showLost(t("connection-ended"));
    } catch (error) {
      showLost(error.message);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

$("zone").addEventListener("change", () => { contentDraft = false; fillForm(); });
$("hold").addEventListener("change", () => { $("hold-time-box").hidden = $("hold").value !== "time"; });
for (const id of ["messages", "mode", "speed", "reads", "effect"]) $(id).addEventListener("input", () => { contentDraft = true; });
// The content document the form stands for: what "Preview" draws and "Show" sends.
function draftUpdate() {
  const messages = $("messages").value.split("\n").map((m) => m.trim()).filter((m) => m.length > 0);
  const update = { zone: $("zone").value, messages: messages, mode: $("mode").value, textDirection: $("reads").value, immediately: true };
  // How long it stays: the program's end is the sign's default.
  const hold = $("hold").value;
  if (hold === "always") update.hold = "always";
  else if (hold === "time" && $("hold-until").value) update.hold = $("hold-until").value;
  // The entry effect is for cycling messages; the speed for scrolling ones.
  if (update.mode === "cycle" || update.mode === "pages") update.in = $("effect").value;
  else update.speed = Number($("speed").value);
  return update;
}

// The form's inputs by the keys the sign's refusals name (`zones[0].messages`, `speed`).
const CONTENT_FIELDS = { messages: "messages", message: "messages", speed: "speed", mode: "mode", in: "effect", textDirection: "reads", hold: "hold-until" };
// Marks the input a refusal names, in the content form, and takes the person there; what
// was typed stays as it was.
function markContentField(error) {
  for (const id of new Set(Object.values(CONTENT_FIELDS))) $(id).removeAttribute("aria-invalid");
  const key = ((error && error.field) || "").split(".").pop().replace(/\[\d+\]$/, "");
  const id = CONTENT_FIELDS[key];
  if (id) { $(id).setAttribute("aria-invalid", "true"); $(id).focus(); }
}
$("content").addEventListener("submit", async (event) => {
  event.preventDefault();
  markContentField(null);
  try {
    state = await api("/api/content", "PATCH", draftUpdate());
    contentDraft = false;
    fillForm();
    // What is on the sign now, and until when (the zone's why).
    const zone = state.zones.find((z) => z.name === $("zone").value) || state.zones[0];
    const why = zone && zone.why;
    showStatus(why && why.until ? (why.program ? t("shown-program", why.program, why.until.local.slice(-5)) : t("shown-until", why.until.local.slice(-5)))
      : t("shown-open"));
    $("status").classList.add("ok");
    $("draft-box").hidden = true;
  } catch (error) { showStatus(error.message); $("status").classList.remove("ok"); markContentField(error); }
});

// A draft drawn by the sign itself (its engine and fonts) as a GIF into `image`, the sign
// unchanged: POST /api/preview with `query`; a refusal is thrown in the page's words.
async function previewInto(image, query, body) {
  const response = await fetch("/api/preview?" + query, {
    method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body),
  });
  if (!response.ok) throw refusalError(await response.json().catch(() => ({})), response);
  if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
  image.src = URL.createObjectURL(await response.blob());
}
$("preview").addEventListener("click", async () => {
  try {
    markContentField(null);
    await previewInto($("draft"), "seconds=whole", draftUpdate());
    $("draft-box").hidden = false;
    showStatus("");
  } catch (error) { showStatus(error.message); markContentField(error); }
});
$("brightness").addEventListener("input", () => { $("brightness-value").textContent = $("brightness").value; });
$("brightness").addEventListener("change", async () => {
  try { state = await api("/api/brightness", "POST", { brightness: Number($("brightness").value) }); showCard(); }
  catch (error) { showCardStatus(error.message); }
});
$("power").addEventListener("click", async () => {
  const on = $("power").getAttribute("aria-checked") !== "true";
  try { state = await api("/api/power", "POST", { on: on }); showCard(); showCardStatus(""); } catch (error) { showCardStatus(error.message); }
});
$("pause").addEventListener("click", async () => {
  try { state = await api("/api/pause", "POST", {}); } catch (error) { showCardStatus(error.message); }
});
$("resume").addEventListener("click", async () => {
  try { state = await api("/api/resume", "POST", {}); } catch (error) { showCardStatus(error.message); }
});
window.addEventListener("resize", draw);

// Draws hex rows (leftmost pixel in the top bit) as LED dots on `canvas`, `scale` pixels each.
function drawDots(canvas, width, height, rows, scale) {
  canvas.width = width * scale;
  canvas.height = height * scale;
  const g = canvas.getContext("2d");
  g.fillStyle = "#000";
  g.fillRect(0, 0, canvas.width, canvas.height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const lit = (parseInt(rows[y].substr((x >> 3) * 2, 2), 16) >> (7 - (x & 7))) & 1;
      g.fillStyle = lit ? "#ff3018" : "#2a2a2a";
      g.fillRect(x * scale, y * scale, scale - (scale > 2 ? 1 : 0), scale - (scale > 2 ? 1 : 0));
    }
  }
}

// The icons the sign offers (GET /api/icons), drawn as the sign draws them; a tap puts
// {icon:NAME} where the cursor is in the messages.
async function loadIcons() {
  let icons;
  try { icons = await api("/api/icons"); } catch (error) { $("icon-picker").hidden = true; return; }
  const grid = $("icon-grid");
  grid.innerHTML = "";
  for (const icon of icons) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "icon";
    button.dataset.icon = icon.name;
    button.title = icon.name;
    button.setAttribute("aria-label", t("icon-insert", icon.name));
    // Each picture on its own (GET /api/icons/NAME), drawn when it comes.
    const canvas = document.createElement("canvas");
    button.append(canvas);
    api("/api/icons/" + encodeURIComponent(icon.name)).then(picture => {
      drawDots(canvas, picture.width, picture.height, picture.rows, Math.max(2, Math.floor(32 / picture.height)));
      canvas.dataset.drawn = "1";
    }, () => canvas.remove());
    const label = document.createElement("span");
    label.textContent = icon.name;
    button.append(label);
    button.addEventListener("click", () => insertAtCursor($("messages"), "{icon:" + icon.name + "}"));
    grid.append(button);
  }
}

// An icon from the phone: the picture's bytes, sent as its type, into the sign's icon folder.
$("icon-upload").addEventListener("click", async () => {
  const file = $("icon-file").files[0], name = $("icon-name").value.trim();
  if (!file || !name) return;
  const kind = /\.pbm$/i.test(file.name) ? "image/x-portable-bitmap" : /\.xbm$/i.test(file.name) ? "image/x-xbitmap" : file.type;
  try {
    const response = await fetch("/api/icons/" + encodeURIComponent(name), {
      method: "PUT", headers: headers({ "Content-Type": kind }), body: await file.arrayBuffer(),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(signError(data.error || response.statusText));
    $("icon-status").textContent = t("icon-added", name);
    loadIcons();
  } catch (error) { $("icon-status").textContent = error.message; }
});

function insertAtCursor(field, text) {
  const start = field.selectionStart ?? field.value.length, end = field.selectionEnd ?? start;
  field.value = field.value.slice(0, start) + text + field.value.slice(end);
  field.focus();
  field.selectionStart = field.selectionEnd = start + text.length;
  field.dispatchEvent(new Event("input"));
}

// The night and off hours (GET and PUT /api/schedule): brightness rules, off periods and
// the sign's location, each input named by the field the sign's refusals name.
function nightRow(kind, index, values) {
  const row = document.createElement("div");
  row.className = "row rule";
  row.dataset.kind = kind;
  const field = (key, label, input) => {
    const box = document.createElement("label"), span = document.createElement("span");
    span.textContent = t(label);
    input.dataset.key = key;
    box.append(span, " ", input);
    row.append(box);
    return input;
  };
  const input = (type, value) => {
    const element = document.createElement("input");
    element.type = type;
    element.value = value;
    if (type === "number") element.inputMode = "numeric";
    return element;
  };
  if (kind === "brightness") {
    // When: a time picked, or sunrise or sunset with minutes before or after.
    const at = values.at || "22:00", solar = at === "sunrise" || at === "sunset";
    const when = document.createElement("select");
    for (const choice of ["at-time", "sunrise", "sunset"]) when.add(new Option(t(choice), choice === "at-time" ? "time" : choice));
    when.value = solar ? at : "time";
    field("at", "at", when);
    const time = field("time", "time", input("time", solar ? "" : at));
    const offset = field("offset", "offset", input("number", values.offset ?? ""));
    offset.min = -720;
    offset.max = 720;
    const level = field("level", "level", input("number", values.level ?? ""));
    level.min = 0;
    level.max = 15;
    const follow = () => {
      time.closest("label").hidden = when.value !== "time";
      offset.closest("label").hidden = when.value === "time";
    };
    when.addEventListener("change", follow);
    follow();
  } else {
    // Dark from one time to another (the first range; any others are kept as they are),
    // on the days chosen, in the dates given.
    const [from, to] = ((values.times || [])[0] || "-").split("-");
    field("from", "off-from", input("time", from));
    field("to", "off-to", input("time", to));
    const days = document.createElement("fieldset");
    days.className = "days";
    days.dataset.key = "days";
    const legend = document.createElement("legend");
    legend.textContent = t("off-days");
    days.append(legend);
    for (const day of DAYS) {
      const chip = document.createElement("label"), box = document.createElement("input");
      box.type = "checkbox";
      box.value = day;
      box.checked = (values.days || []).includes(day);
      chip.append(box, document.createTextNode(t(day)));
      days.append(chip);
    }
    row.append(days);
    // Dates from pickers: the first day and the last.
    const [first, last] = datesSplit(values.dates);
    field("date-from", "off-date-from", input("date", first));
    field("date-to", "off-date-to", input("date", last));
    const more = (values.times || []).slice(1);
    if (more.length) {
      row.dataset.more = JSON.stringify(more);
      const note = document.createElement("p");
      note.className = "when";
      note.textContent = t("off-more", more.join(", "));
      row.append(note);
    }
  }
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "quiet";
  remove.textContent = t("remove");
  remove.addEventListener("click", () => { row.remove(); renumber(kind); });
  row.append(remove);
  renumberRow(row, kind, index);
  return row;
}

// The fields of a row, named as the sign's refusals name them (`brightness[0].at`).
function renumberRow(row, kind, index) {
  const names = { time: "at", from: "times", to: "times", "date-from": "dates", "date-to": "dates" };
  for (const element of row.querySelectorAll("[data-key]")) {
    element.dataset.field = kind + "[" + index + "]." + (names[element.dataset.key] || element.dataset.key);
  }
}

function renumber(kind) {
  const rows = [...$(kind === "brightness" ? "brightness-rules" : "off-periods").querySelectorAll(".rule")];
  rows.forEach((row, index) => renumberRow(row, kind, index));
}

function fillNight(schedule) {
  for (const [kind, box, list] of [["brightness", "brightness-rules", schedule.brightness || []], ["off", "off-periods", schedule.off || []]]) {
    for (const old of $(box).querySelectorAll(".rule")) old.remove();
    list.forEach((values, index) => $(box).append(nightRow(kind, index, values)));
  }
  if (schedule.location) {
    $("latitude").value = schedule.location.latitude;
    $("longitude").value = schedule.location.longitude;
  }
}

// Filled from the sign once; never over what a person has started to type.
let nightTouched = false;
$("night-form").addEventListener("input", () => { nightTouched = true; });
async function loadNight() {
  let schedule = {};
  try { schedule = (await once("/api/schedule")).schedule; } catch (error) { schedule = {}; }
  if (!nightTouched) fillNight(schedule);
  $("night-form").dataset.loaded = "1";
}

// The form as the sign takes it: only what is filled in.
function nightDocument() {
  const value = (row, key) => { const element = row.querySelector('[data-key="' + key + '"]'); return element ? element.value.trim() : ""; };
  const brightness = [...$("brightness-rules").querySelectorAll(".rule")].map((row) => {
    const rule = {}, when = value(row, "at");
    rule.at = when === "time" ? value(row, "time") : when;
    if (when !== "time" && value(row, "offset") !== "") rule.offset = Number(value(row, "offset"));
    if (value(row, "level") !== "") rule.level = Number(value(row, "level"));
    return rule;
  });
  const off = [...$("off-periods").querySelectorAll(".rule")].map((row) => {
    const period = {}, from = value(row, "from"), to = value(row, "to");
    const times = (from || to ? [from + "-" + to] : []).concat(JSON.parse(row.dataset.more || "[]"));
    if (times.length) period.times = times;
    const days = [...row.querySelectorAll(".days input:checked")].map((box) => box.value);
    if (days.length) period.days = days;
    const dates = datesFrom(value(row, "date-from"), value(row, "date-to"));
    if (dates) period.dates = dates;
    return period;
  });
  const document_ = { brightness: brightness, off: off };
  if ($("latitude").value !== "" || $("longitude").value !== "") {
    document_.location = { latitude: Number($("latitude").value), longitude: Number($("longitude").value) };
  }
  return document_;
}

$("add-brightness").addEventListener("click", () => {
  nightTouched = true;
  $("brightness-rules").append(nightRow("brightness", $("brightness-rules").querySelectorAll(".rule").length, { at: "22:00", level: 4 }));
});
$("add-off").addEventListener("click", () => {
  nightTouched = true;
  $("off-periods").append(nightRow("off", $("off-periods").querySelectorAll(".rule").length, { times: ["23:00-07:00"] }));
});
$("night-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  for (const marked of document.querySelectorAll("#night-form [aria-invalid]")) marked.removeAttribute("aria-invalid");
  try {
    await api("/api/schedule", "PUT", nightDocument());
    nightTouched = false;
    $("night-status").textContent = t("night-saved");
    fetched.clear();
    loadWeek();
  } catch (error) {
    // The sign names the field: mark it (each of its inputs) and say what is wrong.
    $("night-status").textContent = error.message;
    const marked = error.field ? [...document.querySelectorAll('#night-form [data-field="' + error.field + '"]')] : [];
    for (const input of marked) input.setAttribute("aria-invalid", "true");
    const first = marked.find((input) => !input.closest("[hidden]"));
    if (first) (first.tagName === "FIELDSET" ? first.querySelector("input") : first).focus();
  }
});

// The week ahead as the sign computes it (GET /api/timetable): one row per change.
// The week as a timeline: a bar a day, coloured by the program playing, dark grey while the
// sign is off (the table below says the same in words).
const BAR_COLOURS = ["#3b82c4", "#c07a2c", "#4a9a55", "#9b59b6", "#c0392b", "#16a085", "#7f8c8d"];
function drawWeekBars(entries) {
  const box = $("week-bars");
  box.innerHTML = "";
  const names = programs.map((p) => p.name);
  let program = null, on = true;
  const days = [];
  for (const entry of entries) {
    let day = days[days.length - 1];
    if (!day || day.day !== entry.day) {
      if (day) day.parts[day.parts.length - 1].end = 1440;
      day = { day: entry.day, weekday: entry.weekday, parts: [{ start: 0, program: program, on: on }] };
      days.push(day);
    }
    if (entry.on !== undefined) on = entry.on;
    if (entry.program !== undefined) program = entry.program;
    if (entry.takeTurns) program = entry.takeTurns.join(" + ");
    const [hours, minutes] = entry.time.split(":").map(Number), minute = hours * 60 + minutes;
    const last = day.parts[day.parts.length - 1];
    if (last.start === minute) { last.program = program; last.on = on; } else { last.end = minute; day.parts.push({ start: minute, program: program, on: on }); }
  }
  if (days.length) days[days.length - 1].parts[days[days.length - 1].parts.length - 1].end = 1440;
  for (const day of days) {
    const row = document.createElement("div"), label = document.createElement("span"), bar = document.createElement("div");
    row.className = "day-bar";
    label.textContent = t(day.weekday) + " " + day.day.slice(5);
    bar.className = "bar";
    for (const part of day.parts) {
      const piece = document.createElement("span");
      piece.style.width = ((part.end - part.start) / 14.4) + "%";
      piece.dataset.program = part.on ? (part.program || "") : "";
      piece.style.background = !part.on ? "#2a2a2a" : BAR_COLOURS[Math.max(0, names.indexOf((part.program || "").split(" + ")[0])) % BAR_COLOURS.length];
      piece.title = (part.on ? part.program || "" : t("week-off")) + " " + String(Math.floor(part.start / 60)).padStart(2, "0") + ":" + String(part.start % 60).padStart(2, "0");
      bar.append(piece);
    }
    row.append(label, bar);
    box.append(row);
  }
}

async function loadWeek() {
  let table;
  try { table = await once("/api/timetable?days=7"); } catch (error) { $("week").hidden = true; upcoming = []; $("upcoming").innerHTML = ""; return; }
  const body = $("week-table").tBodies[0] || $("week-table").createTBody();
  body.innerHTML = "";
  drawWeekBars(table.entries);
  const now = Date.now() / 1000;
  upcoming = table.entries.filter((entry) => entry.at > now);
  // The list says where programs overlap: drawn again when that changed.
  if (noteOverlaps(table.entries)) loadPrograms();
  const next = $("upcoming");
  next.innerHTML = "";
  for (const entry of upcoming.slice(0, 5)) {
    const item = document.createElement("li");
    item.textContent = changeWords(entry);
    next.append(item);
  }
  if (!upcoming.length) {
    const item = document.createElement("li");
    item.textContent = t("upcoming-none");
    next.append(item);
  }
  showCard();
  for (const entry of table.entries) {
    const parts = [];
    if (entry.clocks) parts.push(t(entry.clocks.forward ? "week-forward" : "week-back", entry.clocks.from, entry.clocks.to));
    if (entry.on !== undefined) parts.push(t(entry.on ? "week-on" : "week-off"));
    if (entry.program) parts.push(t(entry.default ? "week-default" : "week-program", entry.program));
    if (entry.takeTurns) parts.push(t("week-turns", entry.takeTurns.join(", ")));
    if (entry.brightness !== undefined) parts.push(t("week-brightness", entry.brightness));
    const row = body.insertRow();
    row.insertCell().textContent = t(entry.weekday) + " " + entry.day.slice(5);
    row.insertCell().textContent = entry.time;
    row.insertCell().textContent = parts.join(", ");
  }
  $("week").hidden = false;
}

// What an owner needs to see first (GET /api/status): version, uptime, board, clock, the
// state file, MQTT, and the sign's last warnings.
async function loadStatus() {
  let status;
  try { status = await api("/api/status"); } catch (error) { return; }
  // Adding an icon takes a sign with a token and an icon folder.
  $("icon-add").hidden = !status.iconUploads;
  const hours = Math.floor(status.uptimeSeconds / 3600), minutes = Math.floor((status.uptimeSeconds % 3600) / 60);
  const state = status.stateFile;
  const rows = [
    ["version", status.version],
    ["uptime", hours + " h " + minutes + " min"],
    ["size-board", status.width + "×" + status.height + ", " + (status.board || t("no-board"))],
    ["clock", t(status.clockSynchronized ? "clock-set" : "clock-unset")],
    ["state-file", !state ? t("state-none") : state.healthy ? t("state-ok", state.path) : t("state-bad", state.lastFailure || state.setAside)],
    ["mqtt", !status.mqtt ? t("mqtt-none") : status.mqtt.connected ? t("mqtt-up", status.mqtt.broker) : t("mqtt-down", status.mqtt.broker, status.mqtt.lastError || "")],
  ];
  const list = $("status-list");
  list.innerHTML = "";
  for (const [key, value] of rows) {
    const term = document.createElement("dt"), detail = document.createElement("dd");
    term.textContent = t(key);
    term.dataset.key = key;
    detail.textContent = value;
    list.append(term, detail);
  }
  const reports = $("report-list");
  reports.innerHTML = "";
  for (const report of status.reports.slice().reverse()) {
    const item = document.createElement("li");
    item.textContent = report.text;
    if (report.level === "warning") item.className = "warning";
    reports.append(item);
  }
}

// The programs as written (GET /api/programs) and which one plays (GET /api/schedule).
let programs = [];
let editing = null;
const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const FORM_KEYS = ["name", "days", "times", "dates", "messages", "mode", "seconds", "passes", "default", "priority"];

// Which programs the week ahead has due together (they take turns), by program; whether
// that changed.
let overlaps = new Map(), overlapsSaid = "";
function noteOverlaps(entries) {
  overlaps = new Map();
  for (const entry of entries) {
    for (const name of entry.takeTurns || []) {
      if (!overlaps.has(name)) overlaps.set(name, new Set());
      for (const other of entry.takeTurns) if (other !== name) overlaps.get(name).add(other);
    }
  }
  const said = JSON.stringify([...overlaps].map(([name, others]) => [name, [...others]]));
  const changed = said !== overlapsSaid;
  overlapsSaid = said;
  return changed;
}
async function loadPrograms() {
  let playing = null;
  try {
    programs = (await once("/api/programs")).programs;
  } catch (error) { $("programs").hidden = true; return; }
  try { playing = (await once("/api/schedule")).program; } catch (error) { playing = null; }
  const list = $("program-list");
  list.innerHTML = "";
  for (const p of programs) {
    const item = document.createElement("li");
    item.dataset.name = p.name;
    // Its colour in the week's bars.
    item.style.borderLeft = "6px solid " + BAR_COLOURS[programs.indexOf(p) % BAR_COLOURS.length];
    const when = [p.days ? p.days.map((d) => t(d)).join(" ") : "", p.times ? p.times.join(", ") : "", p.dates || "", p.default ? t("default-word") : "",
      p.priority ? t("priority-n", p.priority) : ""]
      .filter((w) => w).join(" · ");
    const edit = document.createElement("button");
    edit.type = "button";
    edit.className = "quiet edit";
    edit.textContent = t("edit");
    edit.setAttribute("aria-label", t("edit-named", p.name));
    edit.addEventListener("click", () => openEditor(p.name));
    item.append(edit, document.createTextNode(p.name + " "));
    const detail = document.createElement("span");
    detail.className = "when";
    detail.textContent = when;
    item.append(detail);
    if (p.name === playing) {
      item.className = "playing";
      item.setAttribute("aria-current", "true");
      item.append(document.createTextNode(" — " + t("playing")));
    }
    // Programs due at the same time take turns: said where they overlap.
    const partners = overlaps.get(p.name);
    if (partners && partners.size) {
      const note = document.createElement("span");
      note.className = "overlap";
      note.textContent = t("overlaps", [...partners].join("、"));
      item.append(note);
    }
    list.append(item);
  }
  $("programs").hidden = false;
}

// The editor shows a program's schedule and its first zone's messages; every other key it
// has (fonts, speeds, other zones) is kept as it is.
function openEditor(name) {
  const p = programs.find((p) => p.name === name) || { name: "" };
  editing = name;
  $("program-name").value = p.name;
  const days = $("program-days");
  days.innerHTML = "";
  for (const day of DAYS) {
    const label = document.createElement("label"), box = document.createElement("input");
    box.type = "checkbox";
    box.value = day;
    box.checked = (p.days || []).includes(day);
    label.append(box, document.createTextNode(t(day)));
    days.append(label);
  }
  for (const old of $("program-times").querySelectorAll(".range")) old.remove();
  for (const range of p.times || []) addTimeRange(range);
  [$("program-date-from").value, $("program-date-to").value] = datesSplit(p.dates);
  $("program-messages").value = (p.messages || []).join("\n");
  $("program-mode").value = p.mode || "auto";
  $("program-length").value = p.passes !== undefined ? "passes" : "seconds";
  $("program-count").value = p.passes !== undefined ? p.passes : (p.seconds !== undefined ? p.seconds : "");
  $("program-default").checked = p.default === true;
  // 0 takes turns with what overlaps it; a higher one plays alone over the lower ones.
  const priority = $("program-priority");
  priority.innerHTML = "";
  for (let level = 0; level <= 9; level++) {
    const option = document.createElement("option");
    option.value = String(level);
    option.textContent = level === 0 ? t("priority-normal") : t("priority-level", level);
    priority.append(option);
  }
  priority.value = String(p.priority || 0);
  const kept = Object.keys(p).filter((key) => !FORM_KEYS.includes(key));
  $("program-kept").textContent = kept.length ? t("kept", kept.join(", ")) : "";
  $("program-delete").hidden = name === null;
  $("editor-status").textContent = "";
  $("program-draft-box").hidden = true;
  $("program-editor").hidden = false;
  $("program-name").focus();
}

function editedProgram() {
  const original = programs.find((p) => p.name === editing) || {};
  const p = {};
  for (const key of Object.keys(original)) if (!FORM_KEYS.includes(key)) p[key] = original[key];
  p.name = $("program-name").value.trim();
  const days = [...$("program-days").querySelectorAll("input:checked")].map((box) => box.value);
  if (days.length) p.days = days;
  const times = [...$("program-times").querySelectorAll(".range")].map((row) => {
    const [from, to] = [...row.querySelectorAll("input")].map((input) => (input.dataset.end && input.value === "23:59" ? "24:00" : input.value));
    return from || to ? from + "-" + to : "";
  }).filter((t) => t);
  if (times.length) p.times = times;
  const dates = datesFrom($("program-date-from").value, $("program-date-to").value);
  if (dates) p.dates = dates;
  const messages = $("program-messages").value.split("\n").map((m) => m.trim()).filter((m) => m);
  if (messages.length) p.messages = messages;
  if ($("program-mode").value !== "auto" || original.mode) p.mode = $("program-mode").value;
  const count = $("program-count").value.trim();
  if (count) p[$("program-length").value] = Number(count);
  if ($("program-default").checked) p.default = true;
  if (Number($("program-priority").value) > 0) p.priority = Number($("program-priority").value);
  return p;
}

// A program as it will play, drawn by the sign (POST /api/preview, replacing: each zone
// it names from its starting options), the sign unchanged: its own keys are its first
// zone's content, and "zones" the others'.
const PROGRAM_ONLY = ["name", "days", "times", "dates", "seconds", "passes", "default", "priority", "zones"];
function programContent(p) {
  const first = {};
  for (const [key, value] of Object.entries(p)) if (!PROGRAM_ONLY.includes(key)) first[key] = value;
  const zones = Object.keys(first).length ? [first] : [];
  return { zones: zones.concat(p.zones || []) };
}
$("program-preview").addEventListener("click", async () => {
  const p = editedProgram();
  try {
    await previewInto($("program-draft"), "seconds=whole&replacing=true", programContent(p));
    $("program-draft").alt = t("program-draft-alt", p.name, (p.messages || []).join(" / "));
    $("program-draft-box").hidden = false;
    $("editor-status").textContent = "";
  } catch (error) { $("editor-status").textContent = error.message; }
});

// One stretch of the day: from one time picker to another (24:00 is the day's end).
function addTimeRange(text) {
  const [from, to] = (text || "09:00-18:00").split("-");
  const row = document.createElement("div"), remove = document.createElement("button");
  row.className = "row range";
  for (const [value, words] of [[from, "time-from"], [to, "time-to"]]) {
    const label = document.createElement("label"), span = document.createElement("span"), input = document.createElement("input");
    span.textContent = t(words);
    input.type = "time";
    // A time picker has no 24:00: the day's end is 23:59 to it, and 24:00 to the sign.
    input.value = value === "24:00" ? "23:59" : value || "";
    input.dataset.end = value === "24:00" ? "1" : "";
    label.append(span, " ", input);
    row.append(label);
  }
  remove.type = "button";
  remove.className = "quiet";
  remove.textContent = t("remove");
  remove.addEventListener("click", () => row.remove());
  row.append(remove);
  $("program-times").append(row);
}
$("add-time").addEventListener("click", () => addTimeRange());

// The whole list is sent at once, so a rename or a failure never leaves half a change.
// The list being sent, whose names a refusal's words use (`programs[2]` is the new one).
let programsSent = null;
const PROGRAM_FIELDS = { name: "program-name", days: "program-days", times: "program-times", dates: "program-date-from",
  messages: "program-messages", mode: "program-mode", seconds: "program-count", passes: "program-count", default: "program-default",
  priority: "program-priority" };
// Said under the list after a save or a deletion; a deletion can be taken back.
let undoList = null;
function saidAboutPrograms(text, undo) {
  $("programs-said-text").textContent = text;
  undoList = undo || null;
  $("programs-undo").hidden = !undoList;
}
$("programs-undo").addEventListener("click", () => {
  const back = undoList, name = $("programs-undo").dataset.name;
  saidAboutPrograms("");
  if (back) savePrograms(back, t("restored-program", name));
});
async function savePrograms(list, said, undo) {
  for (const marked of document.querySelectorAll("#program-editor [aria-invalid]")) marked.removeAttribute("aria-invalid");
  programsSent = list;
  try {
    await api("/api/programs", "PUT", { programs: list });
    $("program-editor").hidden = true;
    editing = null;
    saidAboutPrograms(said || "", undo);
    // What was saved shows at once: the list and the week ahead read again.
    fetched.clear();
    await loadPrograms();
    loadWeek();
  } catch (error) {
    $("editor-status").textContent = error.message;
    // The field named, marked in the editor (programs[2].times[0] is the times).
    const key = ((error.field || "").split(".")[1] || "").replace(/\[\d+\]$/, "");
    const input = PROGRAM_FIELDS[key] && $(PROGRAM_FIELDS[key]);
    if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
  } finally { programsSent = null; }
}

$("new-program").addEventListener("click", () => openEditor(null));
$("program-cancel").addEventListener("click", () => { $("program-editor").hidden = true; editing = null; });
$("program-editor").addEventListener("submit", (event) => {
  event.preventDefault();
  const edited = editedProgram(), list = programs.slice(), index = list.findIndex((p) => p.name === editing);
  if (index >= 0) list[index] = edited; else list.push(edited);
  savePrograms(list, t("saved-program", edited.name));
});
// A deletion takes effect at once and can be taken back (the list as it was is sent again).
$("program-delete").addEventListener("click", () => {
  const before = programs.slice(), name = editing;
  $("programs-undo").dataset.name = name;
  savePrograms(programs.filter((p) => p.name !== name), t("deleted-program", name), before);
});

async function load() {
  try {
    const effects = await api("/api/effects");
    effectList = effects;
    fillEffects();
    state = await api("/api/state");
    fillForm();
    // The rest once the sign has answered (after its token, if it asks for one), so none of
    // them asks again or gives up before the person has typed it.
    loadPrograms();
    loadStatus();
    loadWeek();
    loadIcons();
    loadNight();
    finder();
  } catch (error) { showCardStatus(error.message); }
}

$("token").addEventListener("click", () => { if (askToken()) load(); });
applyLanguage();
showSection();
load().then(listen);
// A program that changes by the clock alone comes as a new state on the event stream.
setInterval(loadStatus, 30000);
setInterval(loadWeek, 300000);
