/**
 * The service-provider interface a backend implements to serve a cache template:
 * {@link io.adaptivecache.backend.CacheBackend} (connections, commands, input rules, exception
 * translation), {@link io.adaptivecache.call.CacheCommands} (each command on one native
 * connection), {@link io.adaptivecache.backend.CacheInputRules} (the keys, values and TTLs it
 * accepts, checked before any I/O), and for a backend that spreads keys over several nodes the
 * per-node pieces: {@link io.adaptivecache.backend.NodeLocator},
 * {@link io.adaptivecache.backend.NodeObservingCommands},
 * {@link io.adaptivecache.backend.NodeExceptionTranslator} and
 * {@link io.adaptivecache.backend.NodeProbe}. Applications do not need this package.
 */
@NullMarked
package io.adaptivecache.backend;

import org.jspecify.annotations.NullMarked;
