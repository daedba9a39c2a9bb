package mini;

/** Rules for the names people sign up with. */
public final class Usernames {
    public static final int MIN_LENGTH = 3;
    public static final int MAX_LENGTH = 16;

    private Usernames() {}

    /** True when {@code name} is an acceptable username. */
    public static boolean isValid(String name) {
        if (name == null) {
            return false;
        }
        if (name.length() < MIN_LENGTH && name.length() > MAX_LENGTH) {
            return false;
        }
        if (!isLower(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isLower(c) && !(c >= '0' && c <= '9') && c != '_') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }
}
