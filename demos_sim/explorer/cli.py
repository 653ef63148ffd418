"""``demos-sim serve``: its sub-command (the web stack is imported only when it runs)."""

from __future__ import annotations


def cmd_serve(args) -> int:
    from demos_sim import ConfigError

    if not 0 < args.port < 65536:
        raise ConfigError(f"--port must be 1–65535, got {args.port}")
    from demos_sim.explorer.app import serve

    serve(args.host, args.port, inline=args.inline)
    return 0


def add_serve_parser(sub) -> None:
    sp = sub.add_parser("serve", help="the what-if explorer: a local web page (127.0.0.1)",
                        description="Serve the what-if explorer on http://HOST:PORT/ — change "
                                    "rules and bots, watch paired win-share differences with "
                                    "95% intervals form, export an experiment file, read a "
                                    "sample game.")
    sp.add_argument("--port", type=int, default=8050, help="TCP port of the page (1–65535)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only; any "
                         "other address warns that the network can start runs)")
    sp.add_argument("--inline", action="store_true",
                    help="play runs in a thread of the server rather than a child process")
    sp.set_defaults(func=cmd_serve)
