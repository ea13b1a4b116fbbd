package io.tollgate.testkit.llm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Writes a {@link Reply} to a Jetty response without blocking a thread: each part is one
 * {@code write} whose completion triggers the next, optionally after a pause, so a client sees a
 * stream arrive event by event. Can instead cut the connection part-way, as a crashing or
 * overloaded provider would.
 */
final class ReplyWriter {

    /**
     * Quiet time between the last part sent and a scripted reset. The JDK's
     * {@code HttpResponseInputStream} throws as soon as the body fails, dropping what the app has
     * not read yet; this lets such readers take the events first, as they would when a real
     * provider dies between two events.
     */
    static final Duration SILENCE_BEFORE_RESET = Duration.ofMillis(200);

    private static final int NO_RESET = -1;

    private final Scheduler scheduler;

    ReplyWriter(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Writes the whole reply, without pauses. */
    void write(Reply reply, Response response, Callback callback) {
        write(reply, response, callback, Duration.ZERO);
    }

    /** Writes the whole reply, pausing {@code pause} between streamed parts. */
    void write(Reply reply, Response response, Callback callback, Duration pause) {
        start(reply, reply.parts(), NO_RESET, response, callback, pause, Duration.ZERO);
    }

    /**
     * Sends the headers and then only the start of the body before aborting: the first
     * {@code partsBeforeReset} events of a stream, or the first half of a JSON body (with the full
     * {@code Content-Length} announced). Jetty then closes an HTTP/1.1 connection without the
     * final chunk, and resets an HTTP/2 stream, so the client fails mid-body. The cut comes
     * {@link #SILENCE_BEFORE_RESET} (or {@code pause}, if longer) after the last part.
     */
    void writeThenReset(Reply reply, Response response, Callback callback, Duration pause, int partsBeforeReset) {
        Duration silence = pause.compareTo(SILENCE_BEFORE_RESET) > 0 ? pause : SILENCE_BEFORE_RESET;
        if (reply.streamed()) {
            int sent = Math.min(partsBeforeReset, reply.parts().size());
            start(reply, reply.parts(), sent, response, callback, pause, silence);
        } else {
            byte[] body = reply.parts().isEmpty() ? new byte[0] : reply.parts().get(0);
            start(reply, List.of(Arrays.copyOf(body, body.length / 2)), 1, response, callback, pause, silence);
        }
    }

    private void start(Reply reply, List<byte[]> parts, int resetAfter, Response response, Callback callback,
                       Duration pause, Duration silenceBeforeReset) {
        try {
            response.setStatus(reply.status());
            for (Map.Entry<String, String> header : reply.headers().entrySet()) {
                response.getHeaders().put(header.getKey(), header.getValue());
            }
            if (!reply.streamed()) {
                response.getHeaders().put("content-length", String.valueOf(reply.bodyLength()));
            }
            new PartSequence(parts, resetAfter, response, callback, pause, silenceBeforeReset).iterate();
        } catch (RuntimeException e) {
            callback.failed(e);
        }
    }

    /** Thrown into Jetty on purpose to make it abort a response that is already committed. */
    static final class ScriptedReset extends IOException {
        private static final long serialVersionUID = 1L;

        ScriptedReset() {
            super("scripted connection reset mid-body");
        }
    }

    /**
     * Jetty's {@link IteratingCallback} turns the write-completes-then-write-next chain into a
     * loop, so a long stream cannot overflow the stack when writes complete synchronously.
     */
    private final class PartSequence extends IteratingCallback {

        private final List<byte[]> parts;
        private final int resetAfter;
        private final Response response;
        private final Callback callback;
        private final Duration pause;
        private final Duration silenceBeforeReset;
        private int written;
        private boolean paused;

        PartSequence(List<byte[]> parts, int resetAfter, Response response, Callback callback, Duration pause,
                     Duration silenceBeforeReset) {
            this.parts = parts;
            this.resetAfter = resetAfter;
            this.response = response;
            this.callback = callback;
            this.pause = pause;
            this.silenceBeforeReset = silenceBeforeReset;
        }

        @Override
        protected Action process() throws ScriptedReset {
            if (written == resetAfter) {
                if (!response.isCommitted()) {
                    // The client must see a 200 and its headers before the cut, even with no body yet.
                    response.write(false, ByteBuffer.allocate(0), this);
                    return Action.SCHEDULED;
                }
                if (!paused) {
                    paused = true;
                    scheduler.schedule(this::succeeded, silenceBeforeReset);
                    return Action.SCHEDULED;
                }
                throw new ScriptedReset();
            }
            if (written == parts.size()) {
                return Action.SUCCEEDED;
            }
            if (written > 0 && !pause.isZero() && !paused) {
                paused = true;
                scheduler.schedule(this::succeeded, pause);
                return Action.SCHEDULED;
            }
            paused = false;
            byte[] part = parts.get(written++);
            boolean last = written == parts.size() && resetAfter == NO_RESET;
            response.write(last, ByteBuffer.wrap(part), this);
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteSuccess() {
            callback.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            callback.failed(cause);
        }
    }
}
