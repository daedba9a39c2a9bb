package mini;

import java.util.ArrayDeque;
import java.util.Deque;

/** Bracket matching for a code editor. */
public final class Brackets {
    private Brackets() {}

    public static boolean isBalanced(String text) {
        Deque<Character> open = new ArrayDeque<>();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                open.push(c);
            } else if (c == ')' || c == ']' || c == '}') {
                if (open.isEmpty() || open.pop() != opening(c)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static char opening(char closing) {
        switch (closing) {
            case ')':
                return '(';
            case ']':
                return '[';
            default:
                return '{';
        }
    }
}
