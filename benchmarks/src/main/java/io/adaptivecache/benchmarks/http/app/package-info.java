/**
 * The end-to-end benchmark's web application: {@code GET /items/{id}} answers a JSON item of
 * about 1 KB through a {@code @Cacheable} method, on Spring's cache abstraction over Redis. One
 * application, four variants chosen at launch ({@link io.adaptivecache.benchmarks.http.app.AppVariant}):
 * what spring-boot-starter-data-redis gives, with and without its pool, and what adaptive-cache's
 * starter gives, with and without its near cache. The harness in
 * {@code io.adaptivecache.benchmarks.http} starts each variant in a JVM of its own.
 */
@NullMarked
package io.adaptivecache.benchmarks.http.app;

import org.jspecify.annotations.NullMarked;
