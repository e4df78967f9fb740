"""Screenshot a stored judgment's trace page (for docs/trace-page.png).  It judges nothing: it
renders a judgment already in a trace store, opens the page in Debian's headless chromium through
playwright (no browser download, no network: every non-file request is refused) and saves a PNG.

    .venv/bin/sejury judge examples/code_generation.json        # stores the judgment's trace
    .venv/bin/sejury trace --list                                # its id
    .venv/bin/python scripts/trace_screenshot.py --store ~/.cache/sejury/traces.sqlite j0k3m docs/trace-page.png
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from sejury.errors import SejuryError
from sejury.traces.store import TraceStore, env_trace_path
from sejury.viewers.html import render_html


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--store", type=Path, default=None,
                    help="the trace store (default: SEJURY_TRACE_PATH, else ~/.cache/sejury/traces.sqlite)")
    ap.add_argument("judgment", help="a judgment id, or a unique prefix of one")
    ap.add_argument("out", type=Path, help="the PNG to write")
    ap.add_argument("--width", type=int, default=1400, help="viewport width in CSS pixels (default 1400)")
    ap.add_argument("--max-height", type=int, default=4000,
                    help="cut the full-page shot at this height (0: the whole page; default 4000)")
    ap.add_argument("--html", type=Path, default=None, help="also keep the page here")
    ap.add_argument("--chromium", default=os.environ.get("SEJURY_CHROMIUM") or shutil.which("chromium")
                    or "/usr/bin/chromium", help="the browser binary (default: Debian's chromium)")
    args = ap.parse_args(argv)

    path = args.store.expanduser() if args.store else env_trace_path()
    if not path.exists():
        print(f"error: no trace store at {path}", file=sys.stderr)
        return 2
    store = TraceStore(path)
    try:
        stored = store.get(args.judgment)
    except SejuryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    page_html = render_html(stored)

    try:
        from playwright.sync_api import Route, sync_playwright
    except ImportError:
        print("error: playwright is not installed (.venv/bin/pip install playwright)", file=sys.stderr)
        return 2
    if not Path(args.chromium).exists():
        print(f"error: no chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 2

    def local_only(route: Route) -> None:
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            print(f"refused a network request: {route.request.url}", file=sys.stderr)
            route.abort()

    with tempfile.TemporaryDirectory(prefix="sejury-trace-") as tmp:
        page_path = args.html or Path(tmp) / "trace.html"
        page_path.write_text(page_html, encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, headless=True, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": args.width, "height": 900}, device_scale_factor=1)
            context.route("**/*", local_only)
            page = context.new_page()
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            height = int(page.evaluate("document.documentElement.scrollHeight"))
            args.out.parent.mkdir(parents=True, exist_ok=True)
            if args.max_height and height > args.max_height:
                page.screenshot(path=str(args.out), full_page=True,
                                clip={"x": 0, "y": 0, "width": args.width, "height": args.max_height})
            else:
                page.screenshot(path=str(args.out), full_page=True)
            browser.close()
    print(f"wrote {args.out} (judgment {stored.judgment_id}, sample {stored.sample.id}, page {height}px tall)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
