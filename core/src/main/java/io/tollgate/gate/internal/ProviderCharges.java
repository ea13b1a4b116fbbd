package io.tollgate.gate.internal;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import io.tollgate.overrides.Overrides;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a call to one provider is charged to its account: the account's limits and the limits of
 * the model sent, on one subject, so that both are checked and charged in one atomic step (one
 * script run on one slot). Each model's limits count in a group of their own, named by a digest of
 * the model: a model name can come from a client, and only digests reach Redis.
 *
 * <p>Models that only the {@code "*"} entry covers each get a group too, up to {@link
 * #MAX_OTHER_MODELS} per JVM; beyond that they share one, so a stream of made-up model names cannot
 * grow the account's state without bound.
 */
final class ProviderCharges {

  /** Models under {@code "*"} given a group of their own, per provider and JVM. */
  static final int MAX_OTHER_MODELS = 256;
  /** The group of the models beyond {@link #MAX_OTHER_MODELS}. */
  static final String OVERFLOW_GROUP = "m~other";

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final ProviderConfig provider;
  private final Subject account;
  /** Null when the account itself has no limit. */
  private final Limits accountLimits;
  /** Null when neither the account nor any model has a limit: the call is not charged here. */
  private final Charge accountOnly;
  private final Map<String, Optional<Charge>> byModel = new ConcurrentHashMap<>();
  /** Null: the configuration's limits only. */
  private final Overrides live;
  /** Whether a model may have limits of its own: configured, or set live. */
  private final boolean hasModels;
  private final AtomicInteger otherModels = new AtomicInteger();

  ProviderCharges(ProviderConfig provider) {
    this(provider, null);
  }

  /**
   * The limits of {@code provider} as the configuration sets them, with the live overrides in
   * force now over them (none when {@code live} is null): made again whenever those change.
   */
  ProviderCharges(ProviderConfig provider, Overrides live) {
    this.provider = provider;
    this.live = live;
    this.account = Subject.of("provider", provider.name());
    LimitsConfig limits = live == null ? provider.limits()
        : live.providerLimits(provider.name()).map(provider.limits()::mergedWith)
            .orElse(provider.limits());
    this.accountLimits = limits.isEmpty() ? null : limits.toLimits();
    this.accountOnly = accountLimits == null ? null : new Charge(account, accountLimits);
    this.hasModels = !provider.models().isEmpty()
        || (live != null && live.namesModelsOf(provider.name()));
  }

  /** Whether any call to this provider is charged to its account. */
  boolean chargesAccount() {
    return accountLimits != null || hasModels;
  }

  /** The account's charge for a call that sends {@code model} (empty when it names none). */
  Optional<Charge> charge(Optional<String> model) {
    if (!hasModels) {
      return Optional.ofNullable(accountOnly);
    }
    String name = model.orElse("").toLowerCase(Locale.ROOT);
    Optional<Charge> known = byModel.get(name);
    if (known != null) {
      return known;
    }
    if (provider.models().containsKey(name)
        || (live != null && live.modelLimits(provider.name(), name).isPresent())) {
      return byModel.computeIfAbsent(name, key -> charged(modelLimits(key), group(key)));
    }
    if (otherModels.get() >= MAX_OTHER_MODELS) {
      return charged(modelLimits(name), OVERFLOW_GROUP);
    }
    return byModel.computeIfAbsent(name, key -> {
      otherModels.incrementAndGet();
      return charged(modelLimits(key), group(key));
    });
  }

  /** The model's limits: the configuration's (its own or {@code "*"}'s), a live override's keys over them. */
  private LimitsConfig modelLimits(String model) {
    LimitsConfig configured = provider.modelLimits(model);
    return live == null ? configured
        : live.modelLimits(provider.name(), model).map(configured::mergedWith).orElse(configured);
  }

  private Optional<Charge> charged(LimitsConfig model, String group) {
    if (model.isEmpty()) {
      return Optional.ofNullable(accountOnly);
    }
    Limits modelLimits = model.toLimits().inGroup(group);
    return Optional.of(new Charge(account,
        accountLimits == null ? modelLimits : accountLimits.and(modelLimits)));
  }

  /** {@code m} and 15 base64url characters of SHA-256 over the model's name. */
  static String group(String model) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(("model\0" + model).getBytes(StandardCharsets.UTF_8));
      return "m" + BASE64URL.encodeToString(digest).substring(0, 15);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
