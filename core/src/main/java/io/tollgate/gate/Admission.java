package io.tollgate.gate;

import io.opentelemetry.context.Scope;
import io.tollgate.limiter.Decision;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The gate's answer to an inbound request ({@link Gate#admitInbound}), and what follows it to its
 * end. The front end:
 *
 * <ol>
 *   <li>answers {@link #refusal()} when there is one, and is done (its span has ended);
 *   <li>else, with no {@link #tenant()}, serves the request as it came, unbound (shadow mode let a
 *       request with no usable tenant pass);
 *   <li>else serves it with the tenant and its {@link #user()} bound ({@link Tenants}) and
 *       {@link #makeCurrent()}, the {@link #limitHeaders()} set on the response; when it {@link
 *       #settles()}, shows it each byte of the response body ({@link #onBytes}); and calls {@link
 *       #settle} once the response is complete or the request failed.
 * </ol>
 */
public interface Admission {

  /** The answer to give instead of serving the request; empty when it is served. */
  Optional<SyntheticResponse> refusal();

  /** The tenant the request is charged to and served for (also when refused for its limits). */
  Optional<String> tenant();

  /**
   * The user inside {@link #tenant()} the request is charged to and served for ({@code
   * tenants.user-header}); empty when it names none, or users are not limited. The front end binds
   * it with the tenant ({@link Tenants#bind(String, String)}).
   */
  Optional<String> user();

  /**
   * The limiter's decision, also in shadow mode; empty for a tenant without limits or refused. A
   * request charged to a user and its tenant gets the refusing one's decision, or when admitted one
   * that holds both one's limits (so its remaining counts are the tighter of the two).
   */
  Optional<Decision> decision();

  /** The rate-limit headers of an admitted request (none in shadow mode, where nothing is shown). */
  List<Headers.Field> limitHeaders();

  /** True when the response body is to be shown to {@link #onBytes}: a reservation awaits its settle. */
  boolean settles();

  /** Makes the request's span current while the app serves it: its LLM calls become children. */
  Scope makeCurrent();

  /**
   * Bytes of the response body, just written by the app.
   *
   * @param contentType asked once, at the first bytes
   */
  void onBytes(byte[] bytes, int offset, int length, Supplier<String> contentType);

  /** The app reset the response before committing it: what it wrote so far was never sent. */
  void restart();

  /**
   * The response is complete (with {@code status}), or the request failed with {@code failure}
   * (null when it did not). Settles what was reserved once: with the usage the body reported, else
   * nothing for a failure, a status of 400 or more, or a bodiless request, else the estimate. The
   * span ends. Later calls do nothing.
   */
  void settle(int status, Throwable failure);
}
