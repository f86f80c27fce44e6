/**
 * The management side of a cache template, apart from the calls an application makes:
 * {@link io.adaptivecache.management.CacheTemplateManagement} (start, switch the strategy, read
 * figures and guard state, close), and {@link io.adaptivecache.management.ManagedCacheTemplate},
 * a {@link io.adaptivecache.CacheTemplate} that is also managed, which the template builders
 * return. The adaptive switcher, the Micrometer binding and the Spring Boot layer work over these
 * interfaces only, so any template built by a builder gets all of them.
 */
@NullMarked
package io.adaptivecache.management;

import org.jspecify.annotations.NullMarked;
