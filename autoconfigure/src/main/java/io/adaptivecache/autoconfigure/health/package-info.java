/** Auto-configuration of the cache templates' health indicators. */
package io.adaptivecache.autoconfigure.health;
