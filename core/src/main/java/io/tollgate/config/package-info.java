/**
 * The configuration every front end runs from: {@link io.tollgate.config.TollgateConfig} and its
 * sections, read by {@link io.tollgate.config.TollgateConfigLoader}. The keys are those of
 * {@code CONFIG.md}, kebab-case.
 *
 * <h2>Sources</h2>
 * <ul>
 *   <li><b>YAML</b> (agent, servlet filter): a file path, {@code classpath:name.yaml}, or text. The
 *       document's root must be {@code tollgate:}, as in CONFIG.md and in Spring's
 *       {@code application.yml}; a document whose root is the tree itself is rejected, and a
 *       Tollgate key found at the root ({@code redis:} not indented) is named as such
 *       ({@code redis is not a root key; did you mean tollgate.redis?}). One form only, so that a
 *       mis-indented section fails instead of being ignored. An empty document is an error (most
 *       likely the wrong file); {@code tollgate:} with nothing under it is every default.</li>
 *   <li><b>Properties</b> (Spring starter, servlet init-params): {@code tollgate.redis.url=...};
 *       lists as {@code fallbacks[0]=a}, {@code fallbacks[1]=b} or {@code fallbacks=a,b}; map keys
 *       containing dots in brackets ({@code tollgate.tenants.overrides[acme.com].requests-per-minute});
 *       a model-map key may also be written with its dots ({@code model-map.gpt-3.5-turbo=...}).
 *       Every name must start with {@code tollgate.}. The same binder reads both sources, so the
 *       same tree gives the same {@code TollgateConfig}.</li>
 * </ul>
 *
 * <h2>Values</h2>
 * <ul>
 *   <li>{@code ${NAME}} is replaced by environment variable NAME, {@code ${NAME:default}} falls back
 *       to {@code default} (possibly empty); an unset NAME without default fails, naming the key and
 *       the variable. Not recursive; no nesting.</li>
 *   <li>Durations: a whole number and {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}. A
 *       bare number is rejected: {@code 100} could be ms or s.</li>
 *   <li>Numbers, booleans ({@code true}/{@code false}) and enum names (lower kebab-case:
 *       {@code fail-open}) are strict: {@code 1_000}, {@code yes}, {@code ENFORCE} are errors.</li>
 *   <li>An empty {@code api-key} is no key, so {@code ${OPENAI_API_KEY:}} makes it optional.</li>
 * </ul>
 *
 * <h2>Environment overrides</h2>
 * A variable overrides the key it is named after, over the file or properties: upper case, every
 * character other than a letter or digit becomes {@code _}. {@code TOLLGATE_MODE} →
 * {@code tollgate.mode}, {@code TOLLGATE_REDIS_URL} → {@code tollgate.redis.url},
 * {@code TOLLGATE_PROVIDERS_OPENAI_LIMITS_TOKENS_PER_MINUTE} →
 * {@code tollgate.providers.openai.limits.tokens-per-minute}. Spring Boot's spelling, with dashes
 * dropped ({@code TOLLGATE_ONLIMIT}), works too; setting both spellings of one key is an error.
 * Lists take a comma-separated value ({@code TOLLGATE_REDIS_CLUSTER=h1:7000,h2:7000}). Override
 * values are taken literally ({@code ${...}} is not resolved in them). Entries of providers,
 * tenants.overrides and model-map can be overridden but not created: their names are free, so a
 * variable is matched against the keys the configuration has. Any other {@code TOLLGATE_}
 * variable is an error with a suggestion, like an unknown key; {@code TOLLGATE_CONFIG} (the
 * agent's file location) is left alone. The Spring starter turns overrides off
 * ({@link io.tollgate.config.TollgateConfigLoader.Builder#environmentOverrides(boolean)}), since
 * Spring binds the environment itself.
 *
 * <h2>Errors</h2>
 * One {@link io.tollgate.config.ConfigException}, thrown at the first problem, whose message starts
 * with the full key ({@code tollgate.providers.openai.limits.tokens-per-minute must be > 0, was -5}),
 * or the variable or file at fault. An unknown key fails with the closest known one
 * ({@code did you mean tokens-per-minute?}). API keys and Redis passwords never appear in a message
 * or in {@code toString()}.
 */
package io.tollgate.config;
