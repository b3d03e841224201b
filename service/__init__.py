"""Reference rules service for card games: Pineapple and classic OFC, Joker Thirteen, Thirteen and Taiwanese Big Two."""
