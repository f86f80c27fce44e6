package io.adaptivecache.memcached;

/**
 * Routes spymemcached's logging through SLF4J, with its INFO lines at DEBUG (see
 * {@link QuietSpymemcachedLogger}). Its default for many setups, {@code SunLogger}, builds a stack
 * trace on every log call, even for disabled levels, and measured here at half the throughput.
 * spymemcached reads the choice once, from a system property, when it creates its first logger,
 * so this must run before any spymemcached class logs; an explicit choice by the application is
 * left alone.
 */
final class SpymemcachedLogging {

    static final String PROPERTY = "net.spy.log.LoggerImpl";
    static final String QUIET_SLF4J = QuietSpymemcachedLogger.class.getName();

    private SpymemcachedLogging() {
    }

    static void useSlf4j() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, QUIET_SLF4J);
        }
    }
}
