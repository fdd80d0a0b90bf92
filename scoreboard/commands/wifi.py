"""`scoreboard wifi [--config PATH] [--to FILE]`: the [wifi] of the settings written for
wpa_supplicant (a card image's scoreboard-wifi.service runs it at boot; scoreboard/wifi.py)."""

from scoreboard import config as configuration
from scoreboard.commands import UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "wifi",
        help="write the settings' [wifi] for wpa_supplicant (a card image does at boot)",
        description="Write [wifi] of the settings as wpa_supplicant's config, or remove it "
        "when no network is named.",
    )
    parser.add_argument("--config", default=str(configuration.DEFAULT_PATH), metavar="PATH")
    parser.add_argument(
        "--to", metavar="FILE", help="default /run/scoreboard-wifi/wpa_supplicant-wlan0.conf"
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    from pathlib import Path

    from scoreboard import wifi

    try:
        config = configuration.load(args.config)
    except configuration.ConfigError as exc:
        # The table shows the mistake on its display; the Wi-Fi waits for the file to be right.
        raise UsageError(f"{exc}: no Wi-Fi until the settings are right") from None
    to = Path(args.to) if args.to else wifi.RUN_FILE
    if wifi.write(config.wifi, to):
        print(f"Wi-Fi {config.wifi.ssid!r} ({config.wifi.country}) written to {to}")
    else:
        print("no Wi-Fi named in [wifi]")
    return 0
