/** The servers a run talks to, and the delaying proxy in front of them, each its own process. */
package io.adaptivecache.benchmarks.servers;
