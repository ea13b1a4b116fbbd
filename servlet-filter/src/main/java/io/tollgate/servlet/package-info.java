/**
 * The servlet front end: {@link io.tollgate.servlet.TollgateFilter}, a {@code jakarta.servlet.Filter}
 * that limits each tenant's inbound LLM-backed requests and tokens, declared in {@code web.xml} or
 * built in code. It holds no policy of its own: the tenant's limits come from {@code tollgate.tenants},
 * the decisions from the core's limiter, the token estimate and the usage from the core's LLM
 * protocol. See {@code docs/servlet-filter.md}.
 */
package io.tollgate.servlet;
