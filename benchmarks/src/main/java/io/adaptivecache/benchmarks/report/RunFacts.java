package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a reader needs to trust or reproduce a run: the machine, the JDK, the servers' and the
 * client libraries' versions (read from the jars actually loaded).
 */
public final class RunFacts {

    private RunFacts() {
    }

    /**
     * The machine and JDK.
     * @return label to value, in display order
     */
    public static Map<String, String> machine() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("CPU", cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores available to the JVM");
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        facts.put("Memory", String.format(java.util.Locale.ROOT, "%.1f GiB", memory / (1024.0 * 1024 * 1024)));
        facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")");
        facts.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        facts.put("JVM options", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        return facts;
    }

    /**
     * The servers' versions, from their own binaries.
     * @return label to value
     */
    public static Map<String, String> servers() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("redis-server", command("redis-server", "--version"));
        facts.put("memcached", command("memcached", "-V"));
        return facts;
    }

    /**
     * The client libraries' versions, from the names of the jars their classes were loaded from.
     * @return label to value
     */
    public static Map<String, String> libraries() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("lettuce-core", jarOf("io.lettuce.core.RedisClient"));
        facts.put("netty", jarOf("io.netty.channel.Channel"));
        facts.put("spymemcached", jarOf("net.spy.memcached.MemcachedClient"));
        facts.put("spring-data-redis", jarOf("org.springframework.data.redis.core.RedisTemplate"));
        facts.put("jedis", jarOf("redis.clients.jedis.Jedis"));
        facts.put("xmemcached", jarOf("net.rubyeye.xmemcached.XMemcachedClient"));
        facts.put("commons-pool2", jarOf("org.apache.commons.pool2.impl.GenericObjectPool"));
        facts.put("resilience4j", jarOf("io.github.resilience4j.circuitbreaker.CircuitBreaker"));
        facts.put("HdrHistogram", jarOf("org.HdrHistogram.Histogram"));
        return facts;
    }

    private static String jarOf(String className) {
        try {
            CodeSource source = Class.forName(className).getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return "(unknown)";
            }
            String path = source.getLocation().getPath();
            String name = path.substring(path.lastIndexOf('/', path.length() - 2) + 1);
            return name.endsWith(".jar") ? name.substring(0, name.length() - 4) : name;
        }
        catch (ClassNotFoundException ex) {
            return "(not on the class path)";
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    private static String command(String... command) {
        try {
            Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            process.waitFor(5, TimeUnit.SECONDS);
            return output.lines().findFirst().orElse("(no output)");
        }
        catch (IOException ex) {
            return "(not found on PATH)";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }
}
