package mini;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** An address-book entry; the nickname is optional (may be null). */
public final class Contact {
    private final String fullName;
    private final String nickname;

    public Contact(String fullName, String nickname) {
        if (fullName == null || fullName.isBlank()) {
            throw new IllegalArgumentException("a contact needs a full name");
        }
        this.fullName = fullName.trim();
        this.nickname = nickname;
    }

    /** The name shown in the address book. */
    public String displayName() {
        String nick = nickname.trim();
        return nick.isEmpty() ? fullName : nick;
    }

    /** Display names of {@code contacts}, sorted case-insensitively. */
    public static List<String> sortedNames(List<Contact> contacts) {
        List<String> names = new ArrayList<>();
        for (Contact c : contacts) {
            names.add(c.displayName());
        }
        names.sort(Comparator.comparing(String::toLowerCase));
        return names;
    }
}
