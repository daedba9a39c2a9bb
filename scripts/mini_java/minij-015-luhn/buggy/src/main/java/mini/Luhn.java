package mini;

/** The Luhn checksum used by card numbers. */
public final class Luhn {
    private Luhn() {}

    /** True when {@code number} (digits, optionally grouped with spaces) passes the checksum. */
    public static boolean isValid(String number) {
        String digits = number.replace(" ", "");
        if (digits.length() < 2) {
            return false;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return false;
            }
        }
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled) {
                d *= 2;
                if (d > 9) {
                    d -= 10;
                }
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }

    /** The digit that makes {@code partial} followed by it a valid number. */
    public static int checkDigit(String partial) {
        for (int d = 0; d <= 9; d++) {
            if (isValid(partial + d)) {
                return d;
            }
        }
        throw new IllegalArgumentException("not a number: " + partial);
    }
}
