#!/usr/bin/env python3
"""pyrtmp's README recording server, for OnAir's peer matrix: accepts one publisher on 127.0.0.1:PORT and
writes what it publishes to OUT.flv with pyrtmp's own FLV writer.

    pyrtmp-record.py PORT OUT.flv

Run it from the virtual environment scripts/install-deps.sh test makes (pyrtmp from PyPI). It prints
"serving" once it listens and, when the publisher leaves, "recorded VIDEO AUDIO" (tags written).
"""
import asyncio
import logging
import sys

from pyrtmp import StreamClosedException
from pyrtmp.flv import FLVFileWriter, FLVMediaType
from pyrtmp.rtmp import RTMPProtocol, SimpleRTMPController
from pyrtmp.session_manager import SessionManager

logging.disable(logging.CRITICAL)


class RecordingController(SimpleRTMPController):
    def __init__(self, output: str) -> None:
        self.output = output
        self.counts = {"video": 0, "audio": 0}
        super().__init__()

    async def on_ns_publish(self, session: SessionManager, message) -> None:
        session.state = FLVFileWriter(output=self.output)
        await super().on_ns_publish(session, message)

    async def on_metadata(self, session: SessionManager, message) -> None:
        session.state.write(0, message.to_raw_meta(), FLVMediaType.OBJECT)
        await super().on_metadata(session, message)

    async def on_video_message(self, session: SessionManager, message) -> None:
        session.state.write(message.timestamp, message.payload, FLVMediaType.VIDEO)
        self.counts["video"] += 1
        await super().on_video_message(session, message)

    async def on_audio_message(self, session: SessionManager, message) -> None:
        session.state.write(message.timestamp, message.payload, FLVMediaType.AUDIO)
        self.counts["audio"] += 1
        await super().on_audio_message(session, message)

    async def on_stream_closed(self, session: SessionManager, exception: StreamClosedException) -> None:
        if isinstance(session.state, FLVFileWriter):
            session.state.close()
            print(f"recorded {self.counts['video']} {self.counts['audio']}", flush=True)
        await super().on_stream_closed(session, exception)


async def main() -> None:
    port, output = int(sys.argv[1]), sys.argv[2]
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: RTMPProtocol(controller=RecordingController(output)), host="127.0.0.1", port=port)
    await server.start_serving()
    print("serving", flush=True)
    await server.wait_closed()


if __name__ == "__main__":
    asyncio.run(main())
