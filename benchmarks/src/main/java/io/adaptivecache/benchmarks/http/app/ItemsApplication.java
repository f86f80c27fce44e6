package io.adaptivecache.benchmarks.http.app;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.adaptivecache.redis.RedisTransport;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The items application. Started by the harness in a JVM of its own:
 *
 * <pre>java -cp adaptive-cache-benchmarks.jar io.adaptivecache.benchmarks.http.app.ItemsApplication \
 *     --items.variant=adaptive --items.redis.host=127.0.0.1 --items.redis.port=6390</pre>
 *
 * When it serves, it prints {@code READY <port>} on standard output, its only line there (its
 * logging goes to standard error); it listens on loopback, on a free port unless
 * {@code --server.port} says otherwise.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableCaching
public class ItemsApplication {

    /** The line's first word on standard output once the application serves. */
    public static final String READY = "READY";

    /**
     * Starts the application.
     * @param args {@code --items.variant=...}, Redis's address, and any Boot property
     */
    public static void main(String[] args) {
        PrintStream ready = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // Anything a library prints must not be read as the harness's line.
        System.setOut(System.err);
        ConfigurableApplicationContext context = start(args);
        ready.println(READY + " " + ((WebServerApplicationContext) context).getWebServer().getPort());
    }

    /**
     * Starts the application in this JVM.
     * @param args as for {@link #main}
     * @return its context
     */
    public static ConfigurableApplicationContext start(String... args) {
        AppVariant variant = AppVariant.fromArguments(args);
        RedisTransport transport = variant.fixedTransport();
        if (transport != null) {
            RedisTransport.select(transport);
        }
        return application(variant).run(args);
    }

    /**
     * The application in a variant, not started, its transport left as it is.
     * @param variant the variant
     * @return the application, its default properties the variant's
     */
    static SpringApplication application(AppVariant variant) {
        SpringApplication application = new SpringApplication(ItemsApplication.class);
        application.setDefaultProperties(variant.properties(ItemsApplication.class.getClassLoader()));
        return application;
    }
}
