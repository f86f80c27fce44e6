package io.adaptivecache.management;

import java.time.Instant;

/**
 * A template that started without reaching its server ({@code on-failure: degrade}) and keeps
 * trying in the background: why the latest attempt failed and when the next one is due.
 *
 * @param server the server, as the template describes it (host and port, never a credential)
 * @param reason why the latest attempt failed
 * @param attempts attempts made so far, the one at startup included
 * @param lastAttempt when the latest attempt ended
 * @param nextAttempt when the next attempt is due
 */
public record PendingConnection(String server, String reason, int attempts, Instant lastAttempt, Instant nextAttempt) {
}
