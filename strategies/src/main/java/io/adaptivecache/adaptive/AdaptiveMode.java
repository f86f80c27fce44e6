package io.adaptivecache.adaptive;

/** What the switcher does with its policy's decisions. */
public enum AdaptiveMode {

    /** Carries decisions out. */
    AUTO,

    /** Decides and reports what it would do, never acts. */
    ADVISE
}
