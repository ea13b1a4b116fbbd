package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The one Jetty handler of a {@link MockLlmServer}: reads and records each request, then answers
 * it: a non-API reply, the API's rejection, or the reply of the fault the script draws — after
 * the fault's latency. Nothing here blocks a thread; delays run on Jetty's scheduler.
 */
final class LlmRequestHandler extends Handler.Abstract {

    /** Above the largest request a provider takes (Anthropic: 32 MB), so tests may send such bodies. */
    private static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

    private final RequestJournal journal;
    private final FaultScript script;
    private final Supplier<ReplySettings> settings;
    private final Scheduler scheduler;
    private final ReplyWriter writer;

    LlmRequestHandler(RequestJournal journal, FaultScript script, Supplier<ReplySettings> settings,
                      Scheduler scheduler) {
        this.journal = journal;
        this.script = script;
        this.settings = settings;
        this.scheduler = scheduler;
        this.writer = new ReplyWriter(scheduler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        // Declared non-blocking: answering only builds the reply and starts asynchronous writes.
        Content.Source.asByteArrayAsync(request, MAX_BODY_BYTES, Promise.Invocable.from(InvocationType.NON_BLOCKING,
                body -> {
                    try {
                        answer(journal.record(sequence -> RecordedRequest.from(sequence, request, body)), response,
                                callback);
                    } catch (RuntimeException e) {
                        callback.failed(e);
                    }
                },
                callback::failed));
        return true;
    }

    private void answer(RecordedRequest request, Response response, Callback callback) {
        Optional<ProviderApi> api = Routes.apiAt(request.path());
        if (api.isEmpty() || !request.method().equals("POST")) {
            writer.write(Routes.nonApiReply(request, api.isPresent()), response, callback);
            return;
        }
        ApiCall call = ApiCall.of(request, settings.get());
        Optional<Reply> rejection = api.get().reject(call);
        if (rejection.isPresent()) {
            writer.write(rejection.get().withHeaders(api.get().requestIdHeaders(call)), response, callback);
            return;
        }
        Fault fault = script.draw();
        Reply reply = fault.replyFor(api.get(), call).withHeaders(api.get().requestIdHeaders(call));
        Duration pause = call.settings().chunkDelay();
        Runnable send = fault.resetsMidBody()
                ? () -> writer.writeThenReset(reply, response, callback, pause, fault.eventsBeforeReset())
                : () -> writer.write(reply, response, callback, pause);
        if (fault.latency().isZero()) {
            send.run();
        } else {
            scheduler.schedule(send, fault.latency());
        }
    }
}
