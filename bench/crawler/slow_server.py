#!/usr/bin/env python3
"""Loopback server for the slow-host scenario of bench/crawler/run_bench.sh.

Answers by the Host header's first label: "delay*" hosts get their
robots.txt after 5 seconds, "stall*" hosts never get an answer (the crawler's
timeout ends them). Binds 127.0.0.1 only; exits after --lifetime seconds.
"""
import argparse
import asyncio

BODY = b"User-agent: *\nDisallow: /private\n"


async def handle(reader, writer):
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        host = b""
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"host:"):
                host = line[5:].strip().lower()
        if host.startswith(b"delay"):
            await asyncio.sleep(5)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                         b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                         % len(BODY) + BODY)
            await writer.drain()
        else:
            await asyncio.sleep(3600)
    except Exception:
        pass
    finally:
        writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--lifetime", type=float, default=600)
    args = parser.parse_args()
    server = await asyncio.start_server(handle, "127.0.0.1", args.port,
                                        backlog=4096)
    async with server:
        await asyncio.sleep(args.lifetime)


asyncio.run(main())
