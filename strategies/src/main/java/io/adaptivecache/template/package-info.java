/**
 * The one cache template implementation for every backend, and the builder base that creates
 * it ({@link io.adaptivecache.template.AbstractCacheTemplateBuilder}, extended by each backend's
 * builder). The implementation is package-private: what the builders return is a
 * {@link io.adaptivecache.management.ManagedCacheTemplate}, and nothing outside this package
 * depends on the class behind it.
 */
@NullMarked
package io.adaptivecache.template;

import org.jspecify.annotations.NullMarked;
