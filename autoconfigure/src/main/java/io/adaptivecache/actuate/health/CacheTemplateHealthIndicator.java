package io.adaptivecache.actuate.health;

import java.util.Optional;

import io.adaptivecache.adaptive.AdaptiveState;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.PendingConnection;
import io.adaptivecache.management.TemplateStats;
import io.adaptivecache.resilience.GuardStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * One template's health: UP when a read reaches the server, with the live strategy; DOWN with
 * the failure otherwise (including an open circuit breaker, whose state is a detail). The read is
 * never degraded to a miss, so {@code on-failure: degrade} cannot hide an outage here. A Redis
 * Cluster template asks every master instead, with a detail per master, and is DOWN only when
 * none answers (see {@link ClusterHealth}). A template that started without its server
 * ({@code on-failure: degrade}) is DOWN with {@code reason} "not connected yet", the
 * {@code lastFailure} of its attempts and when the {@code nextAttempt} is due. While its switcher
 * is suppressed for flapping, the health carries a
 * {@code warning} detail.
 */
public class CacheTemplateHealthIndicator implements HealthIndicator {

    private static final String PROBE_KEY = "adaptive-cache:health";

    private final CacheTemplateManagement template;
    private final StrategySwitchers switchers;

    /**
     * Creates an indicator.
     * @param template the template
     * @param switchers where to find its switcher
     */
    public CacheTemplateHealthIndicator(CacheTemplateManagement template, StrategySwitchers switchers) {
        this.template = template;
        this.switchers = switchers;
    }

    @Override
    public Health health() {
        TemplateStats stats = this.template.stats();
        if (!stats.running()) {
            return Health.down().withDetail("reason", "not running").build();
        }
        Optional<PendingConnection> pending = stats.pendingConnection();
        if (pending.isPresent()) {
            // Started without its server (on-failure: degrade): say so, and when it tries again, rather than probe.
            PendingConnection attempts = pending.get();
            return Health.down().withDetail("reason", "not connected yet: started without its server, connecting in the background")
                    .withDetail("backend", stats.backendKind()).withDetail("server", attempts.server())
                    .withDetail("lastFailure", attempts.reason()).withDetail("attempts", attempts.attempts())
                    .withDetail("nextAttempt", attempts.nextAttempt().toString()).build();
        }
        Health.Builder health;
        if (this.template.nodes().isPresent()) {
            // A cluster: every master is asked, since one key reaches only one of them.
            health = ClusterHealth.check(this.template.nodes().orElseThrow().probe());
        }
        else {
            try {
                this.template.probe(PROBE_KEY);
                health = Health.up();
            }
            catch (RuntimeException ex) {
                health = Health.down(ex);
                withAuthenticationFailure(health, ex);
            }
        }
        // Read again after the probe: the figures as they are now, not before it.
        TemplateStats after = this.template.stats();
        health.withDetail("backend", after.backendKind()).withDetail("strategy", after.activeStrategy().toString())
                .withDetail("openConnections", after.openConnections());
        GuardStatus guard = after.guardStatus();
        if (guard.circuitState() != null) {
            health.withDetail("circuitBreaker", guard.circuitState());
        }
        StrategySwitcher switcher = this.switchers.get(this.template.name());
        if (switcher != null) {
            AdaptiveState state = switcher.state();
            health.withDetail("mode", state.pinned() != null ? "pinned" : state.mode().name().toLowerCase(java.util.Locale.ROOT));
            if (state.suppressed()) {
                health.withDetail("warning", "strategy changes are suppressed after repeated rollbacks (flapping load)");
            }
        }
        return health.build();
    }

    /**
     * Names a refusal of the credentials as such, with the user and the properties to check (never the password),
     * also when the probe was refused by a circuit breaker that an authentication failure opened.
     */
    private static void withAuthenticationFailure(Health.Builder health, Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof io.adaptivecache.CacheAuthenticationException refused) {
                health.withDetail("authentication", "failed for " + refused.userDescription()
                        + (refused.credentialsSource() != null ? "; check " + refused.credentialsSource() : "") + " (" + refused.reason()
                        + ")");
                return;
            }
        }
    }
}
