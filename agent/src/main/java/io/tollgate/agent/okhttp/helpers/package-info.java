/**
 * The OkHttp side of the agent: code that names okhttp3 and okio types. These classes are defined
 * in the class loader that loaded OkHttp (listed in
 * {@link io.tollgate.agent.okhttp.OkHttpInstrumentationModule#helperClassNames()}), never loaded
 * through the agent's own loader: nothing outside this package may name them, except the
 * advice inlined into OkHttp's classes. Compiled against OkHttp 3.14 and okio 1.x, whose Java
 * API OkHttp 4 and 5 (Kotlin) keep binary-compatible.
 *
 * <p>Usable without the agent too: {@code builder.addInterceptor(new TollgateInterceptor(gate))},
 * and {@code OriginGuard.addTo(builder)} after every other network interceptor.
 */
package io.tollgate.agent.okhttp.helpers;
