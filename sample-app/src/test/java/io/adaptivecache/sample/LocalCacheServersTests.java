package io.adaptivecache.sample;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's local servers stay out of the build's ahead-of-time processing, which runs the
 * application's start-up but never closes it. Both backends are disabled here, so that neither
 * the listener nor a broken version of it probes an address or starts a server: what tells the
 * two apart is the property source the listener adds when it acts.
 */
class LocalCacheServersTests {

    @Test
    void shouldLeaveTheEnvironmentAloneWhileTheBuildProcessesTheSampleAheadOfTime() {
        String previous = System.getProperty("spring.aot.processing");
        System.setProperty("spring.aot.processing", "true");
        try {
            StandardEnvironment processing = environmentWithoutBackends();
            new LocalCacheServers().onApplicationEvent(prepared(processing));
            assertThat(processing.getPropertySources().contains("sampleLocalCacheServers"))
                    .as("the listener acted during AOT processing").isFalse();
        }
        finally {
            if (previous == null) {
                System.clearProperty("spring.aot.processing");
            }
            else {
                System.setProperty("spring.aot.processing", previous);
            }
        }

        StandardEnvironment running = environmentWithoutBackends();
        new LocalCacheServers().onApplicationEvent(prepared(running));
        assertThat(running.getPropertySources().contains("sampleLocalCacheServers"))
                .as("the listener acts when the application runs (what the check above relies on)").isTrue();
    }

    private static StandardEnvironment environmentWithoutBackends() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", java.util.Map.of(
                "adaptive-cache.redis.enabled", "false", "adaptive-cache.memcached.enabled", "false")));
        return environment;
    }

    private static ApplicationEnvironmentPreparedEvent prepared(StandardEnvironment environment) {
        return new ApplicationEnvironmentPreparedEvent(new DefaultBootstrapContext(), new SpringApplication(SampleApplication.class),
                new String[0], environment);
    }
}
