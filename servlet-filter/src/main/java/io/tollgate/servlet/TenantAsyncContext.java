package io.tollgate.servlet;

import io.tollgate.gate.Tenants;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * The app's {@link AsyncContext}: the container's, except that tasks given to {@link #start} and
 * listeners added to it run with the request's tenant (and user) bound, so LLM calls made from them
 * are charged to them as on the request thread, and {@link #complete()} settles the call.
 */
final class TenantAsyncContext implements AsyncContext {

  private final AsyncContext delegate;
  private final String tenant;
  /** The user inside {@link #tenant}, or null. */
  private final String user;
  private final boolean original;
  /** The call to settle when the app completes, or null. */
  private final InboundCall call;

  TenantAsyncContext(AsyncContext delegate, String tenant, String user, boolean original,
      InboundCall call) {
    this.delegate = delegate;
    this.tenant = tenant;
    this.user = user;
    this.original = original;
    this.call = call;
  }

  boolean wraps(AsyncContext context) {
    return delegate == context;
  }

  @Override
  public ServletRequest getRequest() {
    return delegate.getRequest();
  }

  @Override
  public ServletResponse getResponse() {
    return delegate.getResponse();
  }

  /**
   * True when the app started with {@code startAsync()} or with the request and response the filter
   * gave it: the filter's wrappers are what the app regards as the originals.
   */
  @Override
  public boolean hasOriginalRequestAndResponse() {
    return original;
  }

  @Override
  public void dispatch() {
    delegate.dispatch();
  }

  @Override
  public void dispatch(String path) {
    delegate.dispatch(path);
  }

  @Override
  public void dispatch(ServletContext context, String path) {
    delegate.dispatch(context, path);
  }

  /** Settles first: the app has written everything, and the client must not see the end before. */
  @Override
  public void complete() {
    if (call != null) {
      call.end(null);
    }
    delegate.complete();
  }

  @Override
  public void start(Runnable run) {
    delegate.start(() -> {
      try (Tenants.Scope ignored = Tenants.bind(tenant, user)) {
        run.run();
      }
    });
  }

  @Override
  public void addListener(AsyncListener listener) {
    delegate.addListener(new Bound(listener, tenant, user));
  }

  @Override
  public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
    delegate.addListener(new Bound(listener, tenant, user), request, response);
  }

  @Override
  public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
    return delegate.createListener(type);
  }

  @Override
  public void setTimeout(long timeout) {
    delegate.setTimeout(timeout);
  }

  @Override
  public long getTimeout() {
    return delegate.getTimeout();
  }

  /** An app's listener, called with the tenant (and user) bound. */
  private record Bound(AsyncListener listener, String tenant, String user) implements AsyncListener {

    @Override
    public void onComplete(AsyncEvent event) throws IOException {
      try (Tenants.Scope ignored = Tenants.bind(tenant, user)) {
        listener.onComplete(event);
      }
    }

    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
      try (Tenants.Scope ignored = Tenants.bind(tenant, user)) {
        listener.onTimeout(event);
      }
    }

    @Override
    public void onError(AsyncEvent event) throws IOException {
      try (Tenants.Scope ignored = Tenants.bind(tenant, user)) {
        listener.onError(event);
      }
    }

    @Override
    public void onStartAsync(AsyncEvent event) throws IOException {
      try (Tenants.Scope ignored = Tenants.bind(tenant, user)) {
        listener.onStartAsync(event);
      }
    }
  }
}
