#!/usr/bin/env python3
"""Signs release packages and writes the update manifest (`latest.json`) that Settings →
About reads, in the format of Tauri's updater plugin.

    scripts/release-manifest.py --version 0.2.0 --base-url https://example.org/sidecar/0.2.0 \
        --notes-file NOTES.md --out target/release/updates target/release/bundle/deb/*.deb ...

Each package is copied into --out and signed with `tauri signer sign --app-version`, so the
signature is bound to the version the manifest announces (the app requires that). The
private key comes from TAURI_SIGNING_PRIVATE_KEY_PATH (or TAURI_SIGNING_PRIVATE_KEY) and
its password from TAURI_SIGNING_PRIVATE_KEY_PASSWORD; it never belongs in the repository.
"""
import argparse
import datetime
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TAURI = ROOT / "ui/node_modules/.bin/tauri"
# Tauri's updater looks up "{os}-{arch}-{installer}".
FORMATS = {".deb": "deb", ".rpm": "rpm"}


def sign(package: Path, version: str) -> str:
    done = subprocess.run([str(TAURI), "signer", "sign", "--app-version", version, str(package)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"could not sign {package.name}: {done.stderr.strip() or done.stdout.strip()}")
    return Path(f"{package}.sig").read_text().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--base-url", required=True, help="where the packages will be served from")
    parser.add_argument("--notes-file", type=Path, help="what changed, shown before installing")
    parser.add_argument("--arch", default="x86_64")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("packages", nargs="+", type=Path)
    args = parser.parse_args()

    args.out.mkdir(parents=True, exist_ok=True)
    platforms = {}
    for package in args.packages:
        installer = FORMATS.get(package.suffix)
        if installer is None:
            sys.exit(f"{package.name}: only .deb and .rpm packages update in place")
        copy = args.out / package.name
        if copy.resolve() != package.resolve():
            shutil.copyfile(package, copy)
        platforms[f"linux-{args.arch}-{installer}"] = {
            "signature": sign(copy, args.version),
            "url": f"{args.base_url.rstrip('/')}/{package.name}",
        }
    manifest = {
        "version": args.version,
        "notes": args.notes_file.read_text().strip() if args.notes_file else "",
        "pub_date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "platforms": platforms,
    }
    (args.out / "latest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    print(args.out / "latest.json")


if __name__ == "__main__":
    main()
