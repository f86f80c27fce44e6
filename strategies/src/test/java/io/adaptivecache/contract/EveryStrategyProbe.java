package io.adaptivecache.contract;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.ProbeJvm;

/**
 * The step the optional-driver probes ({@code WithoutJedisProbe}, {@code WithoutXMemcachedProbe})
 * share, run in a JVM without the optional driver: every command on a template through SINGLE,
 * MULTI and POOLED in turn, switching between them, printing {@code served=TYPE} for each.
 */
public final class EveryStrategyProbe {

    private EveryStrategyProbe() {
    }

    /** A probe's body, given the address of the server it is to use. */
    @FunctionalInterface
    public interface Body {

        /**
         * @param server the server's address, as the probe's first argument
         * @throws Exception whatever the probe fails on, reported by {@link ProbeJvm#exit}
         */
        void run(String server) throws Exception;
    }

    /**
     * The whole of an optional-driver probe's {@code main}: checks that the driver's class is not
     * on the class path (printing what {@link ProbeJvm#absent} prints) and only then runs the body
     * on the server its first argument names, ending the JVM as {@link ProbeJvm#exit} does.
     * @param args the probe's arguments: the server first
     * @param driver the driver's name in the output ("jedis")
     * @param driverClass a class of the driver, which must not load
     * @param body what the probe checks without the driver
     */
    public static void mainWithout(String[] args, String driver, String driverClass, Body body) {
        ProbeJvm.exit(() -> {
            if (ProbeJvm.absent(driver, driverClass)) {
                body.run(args[0]);
            }
        });
    }

    /**
     * Serves every command through each strategy; throws {@link AssertionError} at the first
     * command that does not answer as expected.
     * @param template a started template on an empty key space
     * @param keyPrefix the start of the keys written ("no-jedis:")
     * @param alsoCheck a further check per strategy, before it is reported served
     */
    public static void serveEveryCommand(ManagedCacheTemplate template, String keyPrefix, Consumer<ManagedCacheTemplate> alsoCheck) {
        for (StrategySpec strategy : List.of(StrategySpec.single(), StrategySpec.multi(2, SelectorType.ROUND_ROBIN),
                StrategySpec.pooled(PoolSettings.ofSize(2)))) {
            if (!strategy.equals(template.stats().activeStrategy())) {
                template.switchStrategy(strategy);
            }
            String key = keyPrefix + strategy.type();
            template.set(key, bytes("1"), Duration.ofMinutes(1));
            check(new String(template.get(key), StandardCharsets.US_ASCII).equals("1"), "get after set");
            Map<String, byte[]> both = template.getAll(List.of(key, key + ":absent"));
            check(both.keySet().equals(Set.of(key)), "getAll");
            check(!template.add(key, bytes("x"), Duration.ZERO), "add on a present key");
            check(template.replace(key, bytes("2"), Duration.ZERO), "replace on a present key");
            CasValue<byte[]> versioned = template.gets(key);
            check(template.cas(key, versioned.token(), bytes("3"), Duration.ZERO) == CasResult.STORED, "cas");
            check(template.incr(key + ":n", 7) == 7 && template.decr(key + ":n", 2) == 5, "incr and decr");
            check(template.touch(key, Duration.ofSeconds(30)), "touch");
            check(template.delete(key) && template.get(key) == null, "delete");
            alsoCheck.accept(template);
            System.out.println("served=" + strategy.type());
        }
    }

    /**
     * Fails the probe unless a condition held.
     * @param held the condition
     * @param what what it checks, for the failure
     */
    public static void check(boolean held, String what) {
        if (!held) {
            throw new AssertionError(what + " did not hold");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
