package io.tollgate.testkit.llm;

/** Which of a provider's two limits a scripted 429 claims to have hit. */
enum LimitedDimension {
    REQUESTS,
    TOKENS
}
