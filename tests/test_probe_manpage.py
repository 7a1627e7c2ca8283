# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe's version and manual page against the probe itself.

  test_probe_manpage.py PROBE MANPAGE VERSION NEWS

PROBE --version must print VERSION (meson's) for the probe and for the
plugin GStreamer loads, and PROBE --help examples; the manual page (as
meson configured it) must give VERSION and NEWS's first entry's date in
its .TH line and list, as an item of OPTIONS, exactly the long options
PROBE --help lists; NEWS's first entry must be VERSION's; groff must
render the page without a warning (that part is skipped where groff is
not installed)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from timeouts import seconds

failures = []


def fail(why):
    failures.append(why)
    print("FAIL:", why)


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, timeout=seconds(60),
                          env=env)


def check_version(probe, version):
    got = run([probe, "--version"])
    lines = got.stdout.splitlines()
    print("--version:", " | ".join(lines))
    if got.returncode != 0:
        fail(f"--version exited with {got.returncode}: {got.stderr.strip()}")
    if got.stderr:
        fail(f"--version wrote on stderr: {got.stderr.strip()}")
    if not lines or lines[0] != f"clhistogram-probe {version}":
        fail(f"--version's first line is not 'clhistogram-probe {version}'")
    if not any(line.startswith("GStreamer ") for line in lines):
        fail("--version names no GStreamer version")
    plugin = [line for line in lines if line.startswith("clhistogram plugin")]
    if not plugin or not plugin[0].startswith(f"clhistogram plugin {version} ("):
        fail(f"--version does not give the plugin's version as {version}")
    elif "not the probe's release" in plugin[0]:
        fail("--version says the plugin is of another release")


def help_options(probe):
    """The long options of --help's Application and Help Options."""
    got = run([probe, "--help"])
    if got.returncode != 0:
        fail(f"--help exited with {got.returncode}")
    names, section = set(), None
    for line in got.stdout.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line[:-1]
        elif not line.strip():
            section = None
        elif section in ("Application Options", "Help Options"):
            m = re.match(r"\s+(?:-\w, )?--([a-z][a-z0-9-]*)", line)
            if m:
                names.add(m.group(1))
    examples = got.stdout.partition("\nExamples:\n")[2]
    if len(re.findall(r"^  clhistogram-probe ", examples, re.M)) < 3:
        fail("--help gives no Examples: section of 3 commands or more")
    return names


def roff_text(text):
    """A line of roff as plain text: no font changes, \\% or \\&, and
    \\- as '-'."""
    text = re.sub(r"\\f(\[[^]]*\]|.)", "", text)
    return text.replace("\\%", "").replace("\\&", "").replace("\\-", "-")


def page_options(lines):
    """The long options named in the tags of OPTIONS' .TP items."""
    names, in_options = set(), False
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            in_options = roff_text(line[3:]).strip() == "OPTIONS"
        elif in_options and line.startswith(".TP") and i + 1 < len(lines):
            tag = roff_text(lines[i + 1])
            names.update(re.findall(r"--([a-z][a-z0-9-]*)", tag))
    return names


def news_entry(news):
    with open(news, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                m = re.fullmatch(r"clhistogram (\S+) \((\d{4}-\d\d-\d\d)\)",
                                 line.strip())
                return m.groups() if m else (None, None)
    return None, None


def check_page(page, version, news, listed):
    with open(page, encoding="utf-8") as f:
        lines = f.read().splitlines()
    th = [line for line in lines if line.startswith(".TH ")]
    fields = shlex.split(roff_text(th[0])) if th else []
    print(".TH:", fields[1:])
    if len(fields) < 5:
        fail("the page has no .TH line with a date and a source")
        return
    if fields[4] != f"clhistogram {version}":
        fail(f"the page says '{fields[4]}', not 'clhistogram {version}'")
    news_version, news_date = news_entry(news)
    print("NEWS:", news_version, news_date)
    if news_version != version:
        fail(f"NEWS's first entry is not 'clhistogram {version} (DATE)'")
    if fields[3] != news_date:
        fail(f"the page's date {fields[3]} is not NEWS's {news_date}")

    documented = page_options(lines)
    print(f"--help lists {len(listed)} long options; the page's OPTIONS "
          f"items name {len(documented)}")
    if len(listed) < 20 or "version" not in listed:
        fail(f"--help's options were not read: {sorted(listed)}")
    for name in sorted(listed - documented):
        fail(f"--{name} is in --help but no item of the page's OPTIONS")
    for name in sorted(documented - listed):
        fail(f"the page's OPTIONS has --{name}, which --help does not list")


def check_groff(page):
    groff = shutil.which("groff")
    if not groff:
        print("SKIP: no groff (Debian's groff-base): the page's rendering "
              "is not checked")
        return
    env = dict(os.environ, LC_ALL="C.UTF-8")
    got = run([groff, "-man", "-ww", "-z", "-Tutf8", page], env=env)
    print("groff -man -ww:", got.returncode, got.stderr.strip() or "no warning")
    if got.returncode != 0 or got.stderr:
        fail(f"groff warns about the page: {got.stderr.strip()}")


def main():
    probe, page, version, news = sys.argv[1:5]
    check_version(probe, version)
    check_page(page, version, news, help_options(probe))
    check_groff(page)
    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
