/** Auto-configuration of Spring Cache over adaptive-cache templates. */
package io.adaptivecache.autoconfigure.cache;
